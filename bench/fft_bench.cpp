// bench/fft_bench: gridflow's on-chip FFT kernel (launch_onchip_fft) against cuFFT called directly
// on the same data, and both against a device-to-device copy of the same bytes measured in the
// same run (the memory roof: an out-of-place transform reads and writes every byte once).
//
// Each case reports its fraction of a copy of its own bytes (32 MB cases fit the 50 MB L2 of an
// H100 in part, so both cuFFT and this kernel exceed 100% there) and of the 1 GiB copy roof.
//
// Cases: the seed's 64 x 1024 complex float, 1024 x 4096 complex float and double, and every
// on-chip length 64..4096 at about 32 MB of data, float and double; batched complex, forward, out
// of place. Each figure is the median over --repeats timings of --calls back-to-back calls (CUDA
// events), per call. Every variant of the kernel is timed (radix x twiddle source x lines per
// block) and the best is reported with the ratio cuFFT time / its time (> 1: faster than cuFFT).
// Before timing, each variant's output is checked against cuFFT's (relative L2).
//
// The multi-pass lengths 16 x 2^20 and 2^24 go through make_fft_plan with backend flow_graph (two
// or three launches of this kernel, FlowGraphPasses): the plan's default variant and each split at
// radix 8 and 16, every one checked against cuFFT's output before it is timed. --dst times the
// fused DST-I lines kernel on 511^3 (N = 512) along each axis against Dst1Plan's cuFFT path.
//
//   fft_bench [--repeats 7] [--calls 20] [--quick] [--dst] [--only N,...] [--variant V]
//             [--case-mb 32] [--json FILE]
#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>
#include <cufft.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "bench/cufft_check.hpp"
#include "bench/device_timing.hpp"
#include "gridflow/config.hpp"
#include "kernels/fft/dst1.hpp"
#include "kernels/fft/dst1_onchip_cuda.hpp"
#include "kernels/fft/fft_plan.hpp"
#include "kernels/fft/flow_graph_cuda.hpp"
#include "mesh/check.hpp"
#include "mesh/device.hpp"
#include "mesh/field.hpp"

using namespace gridflow;
namespace fft = gridflow::kernels::fft;
using fft::Complex;

namespace {

struct Timing {
  int repeats, calls;
  StreamHandle stream;
  double roof;  ///< bytes/s of a 1 GiB device copy: the memory roof, out of L2's reach
  /// Seconds per call of run().
  template <class F>
  double per_call(F&& run) const {
    return bench::time_median(repeats, stream, [&] {
      for (int c = 0; c < calls; ++c) run();
    }) / calls;
  }
};

/// A cuFFT plan of `batch` contiguous complex transforms of length n, planned once.
template <class T>
class CufftBatch {
 public:
  CufftBatch(long long n, long long batch, StreamHandle stream) {
    BENCH_CUFFT_CHECK(cufftCreate(&m_plan));
    std::size_t work = 0;
    BENCH_CUFFT_CHECK(cufftMakePlanMany64(m_plan, 1, reinterpret_cast<long long*>(&n), nullptr, 1, n, nullptr, 1, n,
                                          std::is_same_v<T, float> ? CUFFT_C2C : CUFFT_Z2Z, batch, &work));
    BENCH_CUFFT_CHECK(cufftSetStream(m_plan, stream));
  }
  ~CufftBatch() { cufftDestroy(m_plan); }
  void forward(const Complex<T>* in, Complex<T>* out) {
    if constexpr (std::is_same_v<T, float>)
      BENCH_CUFFT_CHECK(cufftExecC2C(m_plan, (cufftComplex*)in, (cufftComplex*)out, CUFFT_FORWARD));
    else
      BENCH_CUFFT_CHECK(cufftExecZ2Z(m_plan, (cufftDoubleComplex*)in, (cufftDoubleComplex*)out, CUFFT_FORWARD));
  }

 private:
  cufftHandle m_plan = 0;
};

/// `count` complex values, uniform in [-1, 1)^2 (fixed seed), into a device buffer.
template <class T>
void fill_random(mesh::Buffer& b, long long count) {
  std::vector<Complex<T>> h(static_cast<std::size_t>(count));
  std::mt19937 e(1);
  std::uniform_real_distribution<double> u(-1, 1);
  for (auto& c : h) c = {T(u(e)), T(u(e))};
  mesh::copy_bytes(b.data(), mesh::MemorySpace::device, h.data(), mesh::MemorySpace::host, h.size() * sizeof(Complex<T>));
}

template <class T>
std::vector<Complex<T>> download(const mesh::Buffer& b) {
  std::vector<Complex<T>> v(b.bytes() / sizeof(Complex<T>));
  mesh::copy_bytes(v.data(), mesh::MemorySpace::host, b.data(), mesh::MemorySpace::device, b.bytes());
  return v;
}

template <class T>
double relative_l2(const std::vector<Complex<T>>& a, const std::vector<Complex<T>>& b) {
  double d = 0, r = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double dr = double(a[i].re) - b[i].re, di = double(a[i].im) - b[i].im;
    d += dr * dr + di * di;
    r += double(b[i].re) * b[i].re + double(b[i].im) * b[i].im;
  }
  return std::sqrt(d / r);
}

/// One candidate of a case: run() once, its output in `out` checked against cuFFT's `expected`,
/// then timed. Fills v's error_vs_cufft, us, fraction_of_copy, fraction_of_roof and `ratio_key`
/// (cuFFT's time over the candidate's); returns the candidate's seconds per call.
template <class T, class Run>
double measure(nlohmann::json& v, Run&& run, const mesh::Buffer& out, const std::vector<Complex<T>>& expected,
               const Timing& timing, double moved, double copy_bw, double cufft_s, const char* ratio_key) {
  run();
  mesh::synchronize(timing.stream);
  v["error_vs_cufft"] = relative_l2(download<T>(out), expected);
  const double s = timing.per_call(run);
  v["us"] = s * 1e6;
  v["fraction_of_copy"] = moved / s / copy_bw;
  v["fraction_of_roof"] = moved / s / timing.roof;
  v[ratio_key] = cufft_s / s;
  return s;
}

/// What every case records: its shape, the copy of its own bytes, and cuFFT's time.
nlohmann::json case_record(long long n, long long batch, const char* precision, std::size_t bytes, double copy_bw,
                           double cufft_s, const Timing& timing) {
  const double moved = 2.0 * static_cast<double>(bytes);
  return {{"n", n},
          {"batch", batch},
          {"precision", precision},
          {"bytes", bytes},
          {"copy_GBps", copy_bw * 1e-9},
          {"cufft", {{"us", cufft_s * 1e6}, {"fraction_of_copy", moved / cufft_s / copy_bw}, {"fraction_of_roof", moved / cufft_s / timing.roof}}}};
}

/// The on-chip variants timed on length n: the general kernel's (radix x twiddle source x lines per
/// block) unless `kernel` is "lines", the contiguous-lines kernel's (the same x exchange planes x
/// staged loads) unless it is "general".
std::vector<fft::FlowGraphTunables> variants(long long n, bool quick, const std::string& only_variant, const std::string& kernel) {
  if (!only_variant.empty()) return {fft::FlowGraphTunables::parse(only_variant)};
  std::vector<fft::FlowGraphTunables> all;
  if (kernel != "lines")
    for (int radix : {4, 8, 16, 2})
      for (bool table : {true, false})
        for (int lines : {0, 1, 2, 4, 8, 16}) {
          if (radix > n || (quick && (lines > 2 || !table))) continue;
          fft::FlowGraphTunables t;
          t.radix = radix;
          t.twiddle_table = table;
          t.lines_per_block = lines;
          all.push_back(t);
        }
  if (kernel != "general")
    for (int radix : {4, 8, 16})
      for (bool table : {true, false})
        for (int lines : {0, 1, 2, 4, 8})
          for (int planes : {1, 2})
            for (bool staged : {false, true}) {
              if (radix > n || (quick && (lines > 2 || planes == 2))) continue;
              fft::FlowGraphTunables t;
              t.radix = radix;
              t.twiddle_table = table;
              t.lines_per_block = lines;
              t.planes = planes;
              t.staged = staged;
              all.push_back(t);
            }
  return all;
}

template <class T>
nlohmann::json bench_case(long long n, long long batch, const Timing& timing, bool quick, const std::string& only_variant,
                          const std::string& kernel) {
  const std::size_t bytes = static_cast<std::size_t>(n * batch) * sizeof(Complex<T>);
  mesh::Buffer in(bytes, mesh::MemorySpace::device), out(bytes, mesh::MemorySpace::device), ref(bytes, mesh::MemorySpace::device);
  fill_random<T>(in, n * batch);
  auto* x = static_cast<Complex<T>*>(in.data());
  auto* y = static_cast<Complex<T>*>(out.data());
  const double copy_bw = bench::copy_bandwidth(bytes, timing.repeats, timing.stream);
  const double moved = 2.0 * static_cast<double>(bytes);

  CufftBatch<T> cufft(n, batch, timing.stream);
  cufft.forward(x, static_cast<Complex<T>*>(ref.data()));
  mesh::synchronize(timing.stream);
  const auto expected = download<T>(ref);
  const double cufft_s = timing.per_call([&] { cufft.forward(x, y); });

  fft::OnChipShape shape;
  shape.n = n;
  shape.batch = batch;
  shape.inner_lines = 1;
  shape.in_outer_distance = shape.out_outer_distance = n;
  nlohmann::json all = nlohmann::json::array(), best, best_of[2];  // best_of: general, contiguous-lines kernel
  for (const auto& t : variants(n, quick, only_variant, kernel)) {
    nlohmann::json v = {{"variant", t.to_string()}};
    try {
      const double s = measure<T>(v, [&] { fft::launch_onchip_fft<T>(x, y, shape, t, timing.stream); }, out, expected,
                                  timing, moved, copy_bw, cufft_s, "cufft_over_onchip");
      if (best.is_null() || s * 1e6 < best["us"].get<double>()) best = v;
      auto& family = best_of[t.planes ? 1 : 0];
      if (family.is_null() || s * 1e6 < family["us"].get<double>()) family = v;
    } catch (const Error& e) {
      v["cannot_launch"] = e.what();
    }
    all.push_back(v);
  }
  const char* precision = sizeof(T) == 4 ? "float" : "double";
  std::printf("%5lld x %-7lld %-6s cufft %9.2f us (%4.0f%% of copy)  onchip best %-24s %9.2f us (%4.0f%%)  cufft/onchip %.2f  err %.1e\n",
              n, batch, precision, cufft_s * 1e6, 100 * moved / cufft_s / copy_bw, best["variant"].get<std::string>().c_str(),
              best["us"].get<double>(), 100 * best["fraction_of_copy"].get<double>(), best["cufft_over_onchip"].get<double>(),
              best["error_vs_cufft"].get<double>());
  for (int f = 0; f < 2; ++f)
    if (!best_of[f].is_null())
      std::printf("      best of the %-16s %-28s %9.2f us  cufft/onchip %.3f\n", f ? "contiguous-lines" : "general kernel",
                  best_of[f]["variant"].get<std::string>().c_str(), best_of[f]["us"].get<double>(),
                  best_of[f]["cufft_over_onchip"].get<double>());
  std::fflush(stdout);
  auto record = case_record(n, batch, precision, bytes, copy_bw, cufft_s, timing);
  record["onchip_best"] = best;
  record["onchip_best_general_kernel"] = best_of[0];
  record["onchip_best_contiguous_lines"] = best_of[1];
  record["onchip_variants"] = all;
  return record;
}

/// The variants timed on a multi-pass length: the plan's default, then each split (2 and 3
/// passes) at radix 8 and 16, default and explicit lines per block, both twiddle sources.
std::vector<std::string> multipass_variants(long long n, bool quick) {
  std::vector<std::string> all = {""};
  for (const auto& t : fft::FlowGraphTunables::candidates(n, false)) {
    if (t.kernel != fft::FlowGraphTunables::Kernel::onchip || t.radix < 8) continue;
    if (t.lines_per_block != 4 && t.lines_per_block != 8 && t.lines_per_block != 16) continue;
    if (quick && !t.twiddle_table) continue;
    all.push_back(t.to_string());
    auto automatic = t;  // the same with the launcher's lines per block
    automatic.lines_per_block = 0;
    if (t.lines_per_block == 8 && !quick) all.push_back(automatic.to_string());
  }
  return all;
}

/// A multi-pass length through the device FftPlan (backend flow_graph) against cuFFT: every
/// variant of multipass_variants checked against cuFFT's output, then timed.
template <class T>
nlohmann::json bench_multipass(long long n, long long batch, const Timing& timing, bool quick,
                               const std::string& only_variant) {
  const std::size_t bytes = static_cast<std::size_t>(n * batch) * sizeof(Complex<T>);
  mesh::Buffer in(bytes, mesh::MemorySpace::device), out(bytes, mesh::MemorySpace::device), ref(bytes, mesh::MemorySpace::device);
  fill_random<T>(in, n * batch);
  auto* x = static_cast<Complex<T>*>(in.data());
  auto* y = static_cast<Complex<T>*>(out.data());
  const double copy_bw = bench::copy_bandwidth(bytes, timing.repeats, timing.stream);
  const double moved = 2.0 * static_cast<double>(bytes);
  CufftBatch<T> cufft(n, batch, timing.stream);
  cufft.forward(x, static_cast<Complex<T>*>(ref.data()));
  mesh::synchronize(timing.stream);
  const auto expected = download<T>(ref);
  const double cufft_s = timing.per_call([&] { cufft.forward(x, y); });
  const char* precision = sizeof(T) == 4 ? "float" : "double";
  nlohmann::json all = nlohmann::json::array(), best;
  const auto variants = only_variant.empty()     ? multipass_variants(n, quick)
                        : only_variant == "default" ? std::vector<std::string>{""}
                                                    : std::vector<std::string>{only_variant};
  for (const auto& variant : variants) {
    nlohmann::json v = {{"variant", variant.empty() ? "default" : variant}};
    try {
      fft::FftLayout layout;
      layout.n = n;
      layout.batch = batch;
      const auto plan = fft::make_fft_plan<T>(layout, mesh::MemorySpace::device, timing.stream, {fft::FftBackend::flow_graph, variant});
      const double s = measure<T>(v, [&] { plan->execute(x, y); }, out, expected, timing, moved, copy_bw, cufft_s,
                                  "cufft_over_flow_graph");
      if (best.is_null() || s * 1e6 < best["us"].get<double>()) best = v;
      std::printf("%9lld x %-4lld %-6s %-24s %9.2f us  cufft/flow_graph %.2f  err %.1e\n", n, batch, precision,
                  v["variant"].get<std::string>().c_str(), s * 1e6, cufft_s / s, v["error_vs_cufft"].get<double>());
    } catch (const Error& e) {
      v["cannot_run"] = e.what();
    }
    all.push_back(v);
  }
  std::printf("%9lld x %-4lld %-6s cufft %9.2f us (%4.0f%% of roof)  flow_graph best %-22s %9.2f us (%4.0f%%)  cufft/flow_graph %.2f\n",
              n, batch, precision, cufft_s * 1e6, 100 * moved / cufft_s / timing.roof,
              best.is_null() ? "-" : best["variant"].get<std::string>().c_str(), best.is_null() ? 0.0 : best["us"].get<double>(),
              best.is_null() ? 0.0 : 100 * best["fraction_of_roof"].get<double>(),
              best.is_null() ? 0.0 : best["cufft_over_flow_graph"].get<double>());
  std::fflush(stdout);
  auto record = case_record(n, batch, precision, bytes, copy_bw, cufft_s, timing);
  record["flow_graph"] = all.empty() ? nlohmann::json() : all[0];
  record["flow_graph_best"] = best;
  record["flow_graph_variants"] = all;
  return record;
}

/// The fused DST-I lines kernel on every axis of 511^3 (N = 512), against Dst1Plan (cuFFT).
template <class T>
nlohmann::json bench_dst(const Timing& timing) {
  const mesh::Box<3> box{{1, 1, 1}, {511, 511, 511}};
  mesh::Field<T, 3> field(box, 1, mesh::MemorySpace::device, "dst");
  const double copy_bw = bench::copy_bandwidth(field.allocated_bytes(), timing.repeats, timing.stream);
  const double moved = 2.0 * static_cast<double>(box.size()) * sizeof(T);
  const auto view = field.view();
  const fft::BoxAddressing a = fft::box_addressing(view, box);
  const char* precision = sizeof(T) == 4 ? "float" : "double";
  nlohmann::json axes = nlohmann::json::array();
  double total_onchip = 0, total_plan = 0;
  for (int axis = 0; axis < 3; ++axis) {
    fft::Dst1Plan<T> plan(box, axis, mesh::MemorySpace::device, timing.stream, 0, fft::FftTunables{fft::FftBackend::cufft, ""});
    const double plan_s = timing.per_call([&] { plan.apply(field); });
    nlohmann::json best;
    for (int radix : {4, 8, 16})
      for (int pairs : {0, 1, 2, 4, 8}) {
        fft::FlowGraphTunables t;
        t.radix = radix;
        t.lines_per_block = pairs;
        try {
          const double s = timing.per_call([&] { fft::launch_dst1_lines_onchip<T>(view.data, a, axis, t, timing.stream); });
          if (best.is_null() || s * 1e6 < best["us"].get<double>())
            best = {{"variant", t.to_string()}, {"us", s * 1e6}, {"fraction_of_copy", moved / s / copy_bw}};
        } catch (const Error&) {
        }
      }
    total_onchip += best["us"].get<double>();
    total_plan += plan_s * 1e6;
    std::printf("DST-I 511^3 %-6s axis %d  Dst1Plan(cuFFT) %8.1f us  onchip %-24s %8.1f us (%3.0f%% of copy)\n", precision,
                axis, plan_s * 1e6, best["variant"].get<std::string>().c_str(), best["us"].get<double>(),
                100 * best["fraction_of_copy"].get<double>());
    axes.push_back({{"axis", axis}, {"dst1_plan_us", plan_s * 1e6}, {"onchip_best", best}});
  }
  std::fflush(stdout);
  return {{"box", "511^3"}, {"precision", precision}, {"copy_GBps", copy_bw * 1e-9}, {"axes", axes},
          {"three_axes_onchip_us", total_onchip}, {"three_axes_dst1_plan_us", total_plan}};
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("on-chip FFT kernel against cuFFT and the device copy bandwidth", "fft_bench");
  int repeats = 7, calls = 20;
  long long case_mb = 32;
  bool quick = false, dst = false;
  std::vector<long long> only;
  std::string json_path, only_variant, kernel = "all";
  app.add_option("--repeats", repeats, "timings per figure (the median is kept)");
  app.add_option("--calls", calls, "back-to-back calls per timing");
  app.add_flag("--quick", quick, "fewer variants (table twiddles, lines per block 0..2)");
  app.add_flag("--dst", dst, "also time the fused DST-I lines kernel on 511^3");
  app.add_option("--only", only,
                 "just these lengths (for a profiler): up to 4096 the 32 MB cases, beyond a multi-pass case of "
                 "2^24 / n transforms")
      ->delimiter(',');
  app.add_option("--variant", only_variant,
                 "just this flow_graph variant (FlowGraphTunables syntax; 'default': the plan's default, multi-pass only)");
  app.add_option("--kernel", kernel, "on-chip cases: 'general' (the onchip kernel), 'lines' (the contiguous-lines kernel) or 'all'")
      ->check(CLI::IsMember({"general", "lines", "all"}));
  app.add_option("--case-mb", case_mb, "data per on-chip length case, MiB (32 fits the H100's 50 MB L2 in part)");
  app.add_option("--json", json_path, "write the results here");
  CLI11_PARSE(app, argc, argv);
  if (!mesh::gpu_available()) {
    std::fprintf(stderr, "fft_bench: no CUDA device\n");
    return 1;
  }
  Kokkos::ScopeGuard kokkos(argc, argv);
  mesh::select_gpu(0);
  mesh::Stream stream;
  const Timing timing{repeats, calls, stream.get(), bench::copy_bandwidth(std::size_t(1) << 30, repeats, stream.get())};
  std::printf("%s: 1 GiB device copy %.0f GB/s (read + write); each case also copies its own bytes, which may sit in L2\n",
              mesh::current_gpu_description().c_str(), timing.roof * 1e-9);
  nlohmann::json cases = nlohmann::json::array(), multipass = nlohmann::json::array(), dst_cases = nlohmann::json::array();
  const long long data_bytes = case_mb << 20, multipass_points = 1ll << 24;
  if (only.empty()) {
    cases.push_back(bench_case<float>(64, 1024, timing, quick, only_variant, kernel));
    cases.push_back(bench_case<float>(1024, 4096, timing, quick, only_variant, kernel));
    cases.push_back(bench_case<double>(1024, 4096, timing, quick, only_variant, kernel));
    for (long long n = 64; n <= 4096; n *= 2) only.push_back(n);
    only.push_back(1ll << 20);
    only.push_back(1ll << 24);
  }
  for (long long n : only) {
    if (n <= fft::max_onchip_length<float>()) {
      cases.push_back(bench_case<float>(n, data_bytes / (n * 8), timing, quick, only_variant, kernel));
      cases.push_back(bench_case<double>(n, data_bytes / (n * 16), timing, quick, only_variant, kernel));
    } else {
      multipass.push_back(bench_multipass<float>(n, std::max(1ll, multipass_points / n), timing, quick, only_variant));
    }
  }
  if (dst) {
    dst_cases.push_back(bench_dst<double>(timing));
    dst_cases.push_back(bench_dst<float>(timing));
  }
  std::string command;
  for (int i = 0; i < argc; ++i) command += (i ? " " : "") + std::string(argv[i]);
  const nlohmann::json result = {{"benchmark", "fft_bench"}, {"gpu", mesh::current_gpu_description()}, {"gpu_count", 1},
                                 {"commit", GRIDFLOW_GIT_HASH}, {"command", command},
                                 {"copy_roof_GBps", timing.roof * 1e-9}, {"copy_roof_bytes", std::size_t(1) << 30},
                                 {"timing", "median of " + std::to_string(repeats) + " CUDA-event timings of " +
                                                std::to_string(calls) + " back-to-back calls, per call"},
                                 {"cases", cases}, {"multipass", multipass}, {"dst1_lines", dst_cases}};
  if (!json_path.empty()) std::ofstream(json_path) << result.dump(2) << '\n';
  return 0;
}
