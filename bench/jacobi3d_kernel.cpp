// bench/jacobi3d_kernel: the 7-point Jacobi sweep against the memory-bandwidth roof, in one run.
//
// A sweep reads u and f and writes the new u: 3 sizeof(T) bytes per cell at best (the neighbours
// come from caches). Effective bandwidth = cell updates/s x 3 sizeof(T); the ratio to the copy
// bandwidth measured in the same run is the figure of merit (goal: >= 85% at 512^3). Launches of
// k fused sweeps (temporal blocking) move those bytes once per k sweeps, so their ratio may pass
// 1 (the roof of a single sweep; goal: >= 1.5 at 512^3 float).
//
//   jacobi3d_kernel [--sizes 256,512] [--sweeps 10] [--repeats 7] [--variants] [--fused 2,3,4,8]
//                   [--fused-shape BX,BY,CY,CHUNK] [--json FILE]
//
// --variants times every single-sweep configuration of the tuner's space (autotune/kernel_spaces.hpp);
// --fused times, for each sweep count, a set of fused tile shapes (24 sweeps per timing).
#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "bench/device_timing.hpp"
#include "bench/stencil_fields.hpp"
#include "gridflow/config.hpp"
#include "kernels/stencil/jacobi.hpp"
#include "mesh/check.hpp"
#include "mesh/field.hpp"
#include "autotune/kernel_spaces.hpp"

using namespace gridflow;

namespace {

// Fused tile shapes worth timing: the width and the rows per block against the rim of k points,
// and the chunk against its 2k halo planes. Shapes that do not fit k are skipped.
std::vector<kernels::stencil::JacobiCudaParams> fused_shapes(const std::vector<int>& only) {
  std::vector<kernels::stencil::JacobiCudaParams> shapes;
  if (only.size() == 4) {
    kernels::stencil::JacobiCudaParams p;
    p.block_x = only[0];
    p.block_y = only[1];
    p.cells_y = only[2];
    p.chunk_z = only[3];
    return {p};
  }
  for (const int bx : {32, 64, 128})
    for (const auto& [by, cy] : {std::pair{16, 1}, std::pair{32, 1}, std::pair{8, 2}, std::pair{4, 4}, std::pair{8, 4},
                                 std::pair{16, 2}})
      for (const int chunk : {64, 128}) {
        kernels::stencil::JacobiCudaParams p;
        p.block_x = bx;
        p.block_y = by;
        p.cells_y = cy;
        p.chunk_z = chunk;
        if (p.valid()) shapes.push_back(p);
      }
  return shapes;
}

nlohmann::json params_json(const kernels::stencil::JacobiCudaParams& p, int fused) {
  if (fused == 1)
    return {{"block_x", p.block_x}, {"block_y", p.block_y}, {"cells_z", p.cells_z}, {"shared_tile", p.shared_tile}, {"cells_x", p.cells_x}};
  return {{"fused_steps", fused}, {"block_x", p.block_x}, {"block_y", p.block_y}, {"cells_y", p.cells_y}, {"chunk_z", p.chunk_z}};
}

template <class T>
nlohmann::json bench_jacobi(long n, int sweeps, int repeats, double roof, bool variants, const std::vector<int>& fused,
                            const std::vector<int>& fused_shape, StreamHandle stream) {
  bench::JacobiFields<T> fields(n);
  auto &u = fields.u, &v = fields.v, &f = fields.f;
  const mesh::Box<3>& update = fields.update;
  const auto k = kernels::stencil::poisson_coefficients<T>(1.0 / n, 1.0 / n, 1.0 / n);
  const double bytes_per_cell = 3.0 * sizeof(T);
  // `per_launch` sweeps per launch, `total` sweeps per timing (a multiple of per_launch).
  auto measure_launches = [&](const kernels::stencil::JacobiCudaParams& p, int per_launch, int total) {
    const double s = bench::time_median(repeats, stream, [&] {
      for (int q = 0; q < total / per_launch; ++q) {
        if (q % 2 == 0) kernels::stencil::jacobi_sweeps(u, v, f, per_launch, update, update, k, p, stream);
        else kernels::stencil::jacobi_sweeps(v, u, f, per_launch, update, update, k, p, stream);
      }
    });
    const double rate = static_cast<double>(update.size()) * total / s;
    return nlohmann::json{{"params", params_json(p, per_launch)},
                          {"gcell_per_s", rate * 1e-9},
                          {"effective_GBps", rate * bytes_per_cell * 1e-9},
                          {"fraction_of_copy", rate * bytes_per_cell / roof}};
  };
  auto measure = [&](const kernels::stencil::JacobiCudaParams& p) { return measure_launches(p, 1, sweeps); };
  const char* precision = sizeof(T) == 4 ? "float" : "double";
  nlohmann::json r = {{"n", n}, {"precision", precision}, {"bytes_per_cell", bytes_per_cell}};
  r["default"] = measure({});
  std::printf("%4ld^3 %-6s default %-40s %7.1f Gcell/s %6.0f GB/s %5.1f%% of copy\n", n, precision, "",
              r["default"]["gcell_per_s"].get<double>(), r["default"]["effective_GBps"].get<double>(),
              100 * r["default"]["fraction_of_copy"].get<double>());
  if (variants) {
    nlohmann::json all = nlohmann::json::array();
    nlohmann::json best;
    for (const auto& c : autotune::jacobi_cuda_space(sizeof(T)).enumerate()) {
      nlohmann::json m;
      try {
        m = measure(autotune::jacobi_cuda_params(c));
      } catch (const Error& e) {  // too many registers for the block: skipped, as the tuner does
        all.push_back({{"params", c.to_string()}, {"cannot_launch", e.what()}});
        continue;
      }
      if (best.is_null() || m["gcell_per_s"].get<double>() > best["gcell_per_s"].get<double>()) best = m;
      all.push_back(m);
    }
    r["variants"] = all;
    r["best"] = best;
    std::printf("%4ld^3 %-6s best    %-40s %7.1f Gcell/s %6.0f GB/s %5.1f%% of copy\n", n, precision, best["params"].dump().c_str(),
                best["gcell_per_s"].get<double>(), best["effective_GBps"].get<double>(), 100 * best["fraction_of_copy"].get<double>());
  }
  if (!fused.empty()) {
    constexpr int fused_total = 24;  // a multiple of every sweep count offered
    nlohmann::json all = nlohmann::json::array();
    nlohmann::json best, best_by_count = nlohmann::json::object();
    for (const int count : fused)
      for (const auto& p : fused_shapes(fused_shape)) {
        if (!p.fits_sweeps(count, sizeof(T)) || fused_total % count != 0) continue;
        nlohmann::json m;
        try {
          m = measure_launches(p, count, fused_total);
        } catch (const Error& e) {  // registers or shared memory: skipped, as the tuner does
          all.push_back({{"params", params_json(p, count)}, {"cannot_launch", e.what()}});
          continue;
        }
        const std::string key = std::to_string(count);
        if (!best_by_count.contains(key) || m["gcell_per_s"].get<double>() > best_by_count[key]["gcell_per_s"].get<double>())
          best_by_count[key] = m;
        if (best.is_null() || m["gcell_per_s"].get<double>() > best["gcell_per_s"].get<double>()) best = m;
        all.push_back(m);
      }
    r["fused_variants"] = all;
    r["fused_best_by_sweeps"] = best_by_count;
    r["fused_best"] = best;
    for (const auto& item : best_by_count.items()) {
      const nlohmann::json& m = item.value();
      std::printf("%4ld^3 %-6s fused %s %-40s %7.1f Gcell/s %6.0f GB/s %5.2fx the roof\n", n, precision, item.key().c_str(),
                  m["params"].dump().c_str(), m["gcell_per_s"].get<double>(), m["effective_GBps"].get<double>(),
                  m["fraction_of_copy"].get<double>());
    }
  }
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("7-point Jacobi sweep throughput against the device copy bandwidth", "jacobi3d_kernel");
  std::vector<long> sizes{256, 512};
  int sweeps = 10, repeats = 7;
  bool variants = false;
  std::vector<int> fused, fused_shape;
  std::string json_path;
  app.add_option("--sizes", sizes, "points per side")->delimiter(',');
  app.add_option("--sweeps", sweeps, "sweeps per timing");
  app.add_option("--repeats", repeats, "timings per figure (the median is kept)");
  app.add_flag("--variants", variants, "also time every launch configuration");
  app.add_option("--fused", fused, "also time fused launches of these sweep counts (2, 3, 4, 8)")->delimiter(',');
  app.add_option("--fused-shape", fused_shape, "time only this fused shape: block_x,block_y,cells_y,chunk_z")
      ->delimiter(',')
      ->expected(4);
  app.add_option("--json", json_path, "write the results here");
  CLI11_PARSE(app, argc, argv);
  if (!mesh::gpu_available()) {
    std::fprintf(stderr, "jacobi3d_kernel: no CUDA device\n");
    return 1;
  }
  Kokkos::ScopeGuard kokkos(argc, argv);
  mesh::select_gpu(0);
  mesh::Stream stream;
  const double roof = bench::copy_bandwidth(std::size_t(2) << 30, repeats, stream.get());
  std::printf("%s: device copy %.0f GB/s (2 GiB, read + write)\n", mesh::current_gpu_description().c_str(), roof * 1e-9);
  nlohmann::json cases = nlohmann::json::array();
  for (long n : sizes) {
    cases.push_back(bench_jacobi<float>(n, sweeps, repeats, roof, variants, fused, fused_shape, stream.get()));
    cases.push_back(bench_jacobi<double>(n, sweeps, repeats, roof, variants, fused, fused_shape, stream.get()));
  }
  std::string command;
  for (int i = 0; i < argc; ++i) command += (i ? " " : "") + std::string(argv[i]);
  const nlohmann::json result = {{"benchmark", "jacobi3d_kernel"}, {"gpu", mesh::current_gpu_description()}, {"gpu_count", 1},
                                 {"commit", GRIDFLOW_GIT_HASH},    {"command", command},                     {"copy_bandwidth_GBps", roof * 1e-9},
                                 {"cases", cases}};
  if (!json_path.empty()) std::ofstream(json_path) << result.dump(2) << '\n';
  return 0;
}
