// bench/filter_bench: the convolution filters against the memory-bandwidth roof, in one run.
//
// A filter reads its input and writes its output once at best: 2 sizeof(T) bytes per point. The
// effective bandwidth (points/s x 2 sizeof(T)) over the copy bandwidth measured in the same run is
// the figure of merit. Cases (bench/filter_cupy.py times cupyx.scipy.ndimage on the same ones):
//   mean1d         10^7 doubles, mean of 5, constant (zero outside: the seed's case)
//   correlate1d    10^7 doubles, 5 user weights, reflect
//   gaussian2d_s1  8192^2 float, sigma 1 (radius 4), reflect
//   gaussian2d_s4  8192^2 float, sigma 4 (radius 16), reflect
//   mean3d_s5      512^3 float, mean of 5 per axis, reflect
//   mean3d_s3      512^3 float, mean of 3 per axis, reflect
//   gaussian2d_s8  8192^2 float, sigma 8 (radius 32), reflect            } where the FFT variant
//   correlate2d_17 4096^2 float, full 17 x 17 weights, nearest           } may win: also every
//   correlate3d_9  256^3 float, full 9 x 9 x 9 weights, reflect          } FFT candidate
// Every case times the defaults and, unless --no-variants, every candidate of
// filter_candidates (the direct variant, tiled shapes fused or per axis, streaming strips, ring
// walks, warp lines, panels; only those of --variant NAME where given), each first checked bitwise
// against the host reference on a smaller array; "best" is the fastest that matched. Each figure is
// the median over --repeats timings of --calls back-to-back calls (the device's time per call, as
// fft_bench; --calls 1 times a lone launch, the gap before the kernel's arrival included), the
// copies of the roof and of the case's size timed the same way. The FFT candidates (filter_fft_candidates,
// or with --variant fft alone) are checked within fft_error_bound instead; "best_fft"
// is the fastest of them, and "fft_speedup" the best direct time over it.
//
//   filter_bench [--cases a,b,...] [--repeats 7] [--calls 20] [--no-variants] [--variant ring] [--match TEXT] [--json FILE]
#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "bench/device_timing.hpp"
#include "gridflow/config.hpp"
#include "kernels/filter/correlate.hpp"
#include "kernels/filter/fft_correlate.hpp"
#include "kernels/filter/filter_search_space.hpp"
#include "mesh/check.hpp"
#include "mesh/field.hpp"

using namespace gridflow;
using namespace gridflow::kernels::filter;
using nlohmann::json;

namespace {

// A value in [-1, 1) from a point's linear index: cheap to make for 10^8 points, not smooth.
double pattern(std::uint64_t q) {
  q = (q + 0x9e3779b97f4a7c15ull) * 0xbf58476d1ce4e5b9ull;
  q ^= q >> 31;
  return static_cast<double>(q >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

/// `count` weights of a smooth bump summing to 1: a blur of full weights, as filter_cupy.py makes them.
std::vector<double> bench_weights(int count) {
  std::vector<double> w(static_cast<std::size_t>(count));
  double sum = 0;
  for (int i = 0; i < count; ++i) sum += (w[static_cast<std::size_t>(i)] = 1.0 + 0.5 * std::cos(0.37 * i));
  for (double& v : w) v /= sum;
  return w;
}

template <class T, int Dim>
mesh::Box<Dim> box_of(const std::array<long, 3>& n) {
  mesh::Box<Dim> b;
  for (int d = 0; d < Dim; ++d) b.lo[d] = 0, b.hi[d] = n[d] - 1;
  return b;
}

template <class T, int Dim>
mesh::Field<T, Dim> host_pattern(const mesh::Box<Dim>& box) {
  mesh::Field<T, Dim> f(box, 0, mesh::MemorySpace::host);
  const long nx = box.extent(0), ny = box.extent(1), nz = Dim == 3 ? box.extent(Dim - 1) : 1;
  for (long k = 0; k < nz; ++k)
    for (long j = 0; j < ny; ++j) {
      T* row;
      if constexpr (Dim == 2) row = &f(0, j);
      else row = &f(0, j, k);
      for (long i = 0; i < nx; ++i) row[i] = static_cast<T>(pattern(static_cast<std::uint64_t>(i + nx * (j + ny * k))));
    }
  return f;
}

/// Counts the points of `box` where a and b differ in any bit.
template <class T, int Dim>
long differing(const mesh::Field<T, Dim>& a, const mesh::Field<T, Dim>& b, const mesh::Box<Dim>& box) {
  long n = 0;
  const long nz = Dim == 3 ? box.extent(Dim - 1) : 1;
  for (long k = 0; k < nz; ++k)
    for (auto j = box.lo[1]; j <= box.hi[1]; ++j) {
      const T *x, *y;
      if constexpr (Dim == 2) x = &a(box.lo[0], j), y = &b(box.lo[0], j);
      else x = &a(box.lo[0], j, box.lo[2] + k), y = &b(box.lo[0], j, box.lo[2] + k);
      for (long i = 0; i < box.extent(0); ++i) n += std::memcmp(x + i, y + i, sizeof(T)) != 0;
    }
  return n;
}

/// Counts the points of `box` where a and b differ by more than `bound`.
template <class T, int Dim>
long beyond(const mesh::Field<T, Dim>& a, const mesh::Field<T, Dim>& b, const mesh::Box<Dim>& box, double bound) {
  long n = 0;
  const long nz = Dim == 3 ? box.extent(Dim - 1) : 1;
  for (long k = 0; k < nz; ++k)
    for (auto j = box.lo[1]; j <= box.hi[1]; ++j)
      for (auto i = box.lo[0]; i <= box.hi[0]; ++i) {
        double x, y;
        if constexpr (Dim == 2) x = a(i, j), y = b(i, j);
        else x = a(i, j, box.lo[2] + k), y = b(i, j, box.lo[2] + k);
        n += !(std::abs(x - y) <= bound);
      }
  return n;
}

std::string to_text(const FilterTunables& t) {
  std::ostringstream os;
  os << t;
  return os.str();
}

template <class T, int Dim>
json bench_case(const json& spec, int dims, std::array<long, 3> n, std::array<long, 3> n_check, const FilterWeights<Dim>& w,
                const Boundary& b, int repeats, int calls, double roof, bool variants, const std::string& only, const std::string& match,
                StreamHandle stream, bool fft = false) {
  const auto global = box_of<T, Dim>(n);
  mesh::Field<T, Dim> in(global, 0, mesh::MemorySpace::device, "in"), out(global, 0, mesh::MemorySpace::device, "out");
  in.copy_from(host_pattern<T, Dim>(global));
  // The oracle: the host reference on a smaller array of the same kind.
  const auto small = box_of<T, Dim>(n_check);
  const mesh::Field<T, Dim> small_host = host_pattern<T, Dim>(small);
  mesh::Field<T, Dim> small_want(small, 0, mesh::MemorySpace::host), small_got(small, 0, mesh::MemorySpace::host);
  FilterPlan<T, Dim>(w, b, small).apply(small_host, small_want, small, nullptr);
  mesh::Field<T, Dim> small_in(small, 0, mesh::MemorySpace::device), small_out(small, 0, mesh::MemorySpace::device);
  small_in.copy_from(small_host);

  const double points = static_cast<double>(global.size()), bytes = 2.0 * sizeof(T) * points;
  // A copy of the case's own size: what a single launch of this size can reach (start-up and tail
  // weigh more on small arrays than on the 2 GiB roof's).
  const double same_size = bench::copy_bandwidth(static_cast<std::size_t>(sizeof(T) * points), repeats, stream, calls);
  auto measure = [&](const FilterTunables& t) {
    FilterPlan<T, Dim> check(w, b, small, t);
    check.apply(small_in, small_out, small, stream);
    small_got.copy_from(small_out);
    long wrong = differing(small_got, small_want, small);
    if (t.variant == FilterVariant::fft) {  // equal to rounding: points beyond the bound count as wrong
      mesh::Index longest = 0;
      for (int d = 0; d < Dim; ++d) longest = std::max<mesh::Index>(longest, small.extent(d) + w.length(d));
      wrong = beyond(small_got, small_want, small, fft_error_bound<T, Dim>(w, longest, 1.0));
    }
    FilterPlan<T, Dim> plan(w, b, global, t);
    const double s = bench::time_median_per_call(repeats, calls, stream, [&] { plan.apply(in, out, global, stream); });
    return json{{"tunables", to_text(t)},
                {"path", plan.path()},
                {"matches_host_reference", wrong == 0},
                {"points_differing_from_host_reference", wrong},
                {"seconds", s},
                {"gpoints_per_s", points / s * 1e-9},
                {"effective_GBps", bytes / s * 1e-9},
                {"fraction_of_copy", bytes / s / roof},
                {"fraction_of_same_size_copy", bytes / s / same_size}};
  };
  auto line = [&](const char* what, const json& m) {
    std::printf("%-14s %-8s %9.1f us %7.0f GB/s %5.1f%% of copy  %s [%s]%s\n", spec["name"].get<std::string>().c_str(), what,
                m["seconds"].get<double>() * 1e6, m["effective_GBps"].get<double>(), 100 * m["fraction_of_copy"].get<double>(),
                m["tunables"].get<std::string>().c_str(), m["path"].get<std::string>().c_str(),
                m["matches_host_reference"].get<bool>() ? "" : "  WRONG");
    std::fflush(stdout);
  };
  json r = spec;
  r["points"] = global.size();
  r["precision"] = sizeof(T) == 4 ? "float" : "double";
  r["bytes_moved"] = bytes;
  r["same_size_copy_GBps"] = same_size * 1e-9;
  std::printf("%-14s same-size copy %7.0f GB/s = %5.1f%% of the 2 GiB copy\n", spec["name"].get<std::string>().c_str(), same_size * 1e-9,
              100 * same_size / roof);
  r["default"] = measure(FilterTunables::defaults_for(dims));
  line("default", r["default"]);
  if (variants) {
    json all = json::array(), best, best_fft;
    if (r["default"]["matches_host_reference"].get<bool>()) best = r["default"];
    std::vector<FilterTunables> candidates = filter_candidates(dims);
    if (fft) {
      const auto f = filter_fft_candidates(dims, mesh::MemorySpace::device);
      candidates.insert(candidates.end(), f.begin(), f.end());
    }
    for (const auto& t : candidates) {
      if (!only.empty() && only != to_string(t.variant)) continue;
      if (!match.empty() && to_text(t).find(match) == std::string::npos) continue;
      if (!w.separable && t.variant != FilterVariant::fft) continue;  // full weights run one direct kernel: the default's
      json m;
      try {
        m = measure(t);
      } catch (const Error& e) {
        all.push_back({{"tunables", to_text(t)}, {"cannot_run", e.what()}});
        continue;
      }
      json& kept = t.variant == FilterVariant::fft ? best_fft : best;
      if (m["matches_host_reference"].get<bool>() && (kept.is_null() || m["seconds"].get<double>() < kept["seconds"].get<double>())) kept = m;
      all.push_back(m);
    }
    r["variants"] = all;
    r["best"] = best;
    if (!best.is_null()) line("best", best);
    if (!best_fft.is_null()) {
      r["best_fft"] = best_fft;
      line("best fft", best_fft);
      if (!best.is_null()) r["fft_speedup"] = best["seconds"].get<double>() / best_fft["seconds"].get<double>();
    }
    for (const auto& m : all)
      if (m.contains("tunables") && m["tunables"] == to_text({FilterVariant::direct})) line("direct", m);
  }
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("convolution filters against the device copy bandwidth", "filter_bench");
  std::vector<std::string> cases{"mean1d",    "correlate1d",   "gaussian2d_s1",  "gaussian2d_s4", "mean3d_s5",
                                 "mean3d_s3", "gaussian2d_s8", "correlate2d_17", "correlate3d_9"};
  int repeats = 7, calls = 20;
  bool no_variants = false;
  std::string json_path, only, match;
  app.add_option("--cases", cases, "cases to run")->delimiter(',');
  app.add_option("--variant", only, "time only the candidates of this variant (direct, tiled, streaming, ring, warp, panel, fft)");
  app.add_option("--match", match, "time only the candidates whose label holds this text (for a profiler)");
  app.add_option("--repeats", repeats, "timings per figure (the median is kept)");
  app.add_option("--calls", calls, "back-to-back calls per timing (1: a lone launch, its launch gap counted)")->check(CLI::Range(1, 1000));
  app.add_flag("--no-variants", no_variants, "time the defaults only");
  app.add_option("--json", json_path, "write the results here");
  CLI11_PARSE(app, argc, argv);
  if (!mesh::gpu_available()) {
    std::fprintf(stderr, "filter_bench: no CUDA device\n");
    return 1;
  }
  Kokkos::ScopeGuard kokkos(argc, argv);
  mesh::select_gpu(0);
  mesh::Stream stream;
  const double roof = bench::copy_bandwidth(std::size_t(2) << 30, repeats, stream.get(), calls);
  std::printf("%s: device copy %.0f GB/s (2 GiB, read + write)\n", mesh::current_gpu_description().c_str(), roof * 1e-9);
  const bool variants = !no_variants;
  const StreamHandle s = stream.get();
  json results = json::array();
  const long n1 = 10000000, n2 = 8192, n3 = 512;
  for (const auto& name : cases) {
    if (name == "mean1d") {
      const json spec = {{"name", name}, {"shape", {n1}}, {"filter", "mean"}, {"size", 5}, {"mode", "constant"}};
      results.push_back(bench_case<double, 2>(spec, 1, {n1, 1, 1}, {100003, 1, 1},
                                              separable_weights<2>({mean_weights(5), identity_weights()}, "mean"),
                                              {BoundaryMode::constant, 0.0}, repeats, calls, roof, variants, only, match, s));
    } else if (name == "correlate1d") {
      const std::vector<double> w{0.05, 0.25, 0.4, 0.25, 0.05};
      const json spec = {{"name", name}, {"shape", {n1}}, {"filter", "correlate"}, {"weights", w}, {"mode", "reflect"}};
      results.push_back(bench_case<double, 2>(spec, 1, {n1, 1, 1}, {100003, 1, 1}, separable_weights<2>({w, identity_weights()}),
                                              {BoundaryMode::reflect, 0.0}, repeats, calls, roof, variants, only, match, s));
    } else if (name == "gaussian2d_s1" || name == "gaussian2d_s4") {
      const double sigma = name == "gaussian2d_s1" ? 1.0 : 4.0;
      const json spec = {{"name", name}, {"shape", {n2, n2}}, {"filter", "gaussian"}, {"sigma", sigma}, {"truncate", 4.0}, {"mode", "reflect"}};
      results.push_back(bench_case<float, 2>(spec, 2, {n2, n2, 1}, {515, 263, 1}, gaussian_filter<2>({sigma, sigma}),
                                             {BoundaryMode::reflect, 0.0}, repeats, calls, roof, variants, only, match, s));
    } else if (name == "mean3d_s5" || name == "mean3d_s3") {
      const int size = name == "mean3d_s5" ? 5 : 3;
      const json spec = {{"name", name}, {"shape", {n3, n3, n3}}, {"filter", "mean"}, {"size", size}, {"mode", "reflect"}};
      results.push_back(bench_case<float, 3>(spec, 3, {n3, n3, n3}, {67, 45, 37}, mean_filter<3>({size, size, size}),
                                             {BoundaryMode::reflect, 0.0}, repeats, calls, roof, variants, only, match, s));
    } else if (name == "gaussian2d_s8") {
      const json spec = {{"name", name}, {"shape", {n2, n2}}, {"filter", "gaussian"}, {"sigma", 8.0}, {"truncate", 4.0}, {"mode", "reflect"}};
      results.push_back(bench_case<float, 2>(spec, 2, {n2, n2, 1}, {515, 263, 1}, gaussian_filter<2>({8.0, 8.0}),
                                             {BoundaryMode::reflect, 0.0}, repeats, calls, roof, variants, only, match, s, true));
    } else if (name == "correlate2d_17") {
      const long n = 4096;
      const json spec = {{"name", name}, {"shape", {n, n}}, {"filter", "correlate"}, {"weights_shape", {17, 17}}, {"mode", "nearest"}};
      results.push_back(bench_case<float, 2>(spec, 2, {n, n, 1}, {301, 157, 1}, full_weights<2>({17, 17}, bench_weights(17 * 17)),
                                             {BoundaryMode::nearest, 0.0}, repeats, calls, roof, variants, only, match, s, true));
    } else if (name == "correlate3d_9") {
      const long n = 256;
      const json spec = {{"name", name}, {"shape", {n, n, n}}, {"filter", "correlate"}, {"weights_shape", {9, 9, 9}}, {"mode", "reflect"}};
      results.push_back(bench_case<float, 3>(spec, 3, {n, n, n}, {71, 53, 47}, full_weights<3>({9, 9, 9}, bench_weights(9 * 9 * 9)),
                                             {BoundaryMode::reflect, 0.0}, repeats, calls, roof, variants, only, match, s, true));
    } else {
      std::fprintf(stderr, "filter_bench: unknown case '%s'\n", name.c_str());
      return 2;
    }
  }
  std::string command;
  for (int i = 0; i < argc; ++i) command += (i ? " " : "") + std::string(argv[i]);
  const json result = {{"benchmark", "filter_bench"}, {"gpu", mesh::current_gpu_description()}, {"gpu_count", 1},
                       {"commit", GRIDFLOW_GIT_HASH},  {"command", command},                     {"copy_bandwidth_GBps", roof * 1e-9},
                       {"calls_per_timing", calls}, {"cases", results}};
  if (!json_path.empty()) std::ofstream(json_path) << result.dump(2) << '\n';
  return 0;
}
