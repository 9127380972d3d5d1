// bench/heat2d_kernel: the heat kernel against the memory-bandwidth roof, measured in one run.
//
// Roof: a large device-to-device copy, counting bytes read plus written. Kernel: ping-pong heat
// steps on n x n points; a step reads and writes each cell once at best, so its effective
// bandwidth is cell updates/s x 2 sizeof(T), and the ratio to the copy is the figure of merit.
// Every figure is the median of repeated timings with CUDA events after a warm-up. Fused launches
// (temporal blocking, --fused) take k steps each and cross DRAM once per launch, so their ratio to
// the copy can pass 1: the tile kernel at a few launch shapes, the streaming kernel at every
// cells-per-lane and segment length.
//
//   heat2d_kernel [--sizes 8192,16384] [--steps 20] [--repeats 7] [--variants] [--fused 2,4,8,16] [--json FILE]
#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "bench/device_timing.hpp"
#include "bench/stencil_fields.hpp"
#include "gridflow/config.hpp"
#include "kernels/stencil/heat.hpp"
#include "mesh/device.hpp"
#include "mesh/field.hpp"

using namespace gridflow;

namespace {

using bench::copy_bandwidth;
using bench::time_median;

/// The parameters as JSON, the streaming kernel's only when it is chosen.
nlohmann::json params_json(const kernels::stencil::HeatCudaParams& p) {
  if (p.stream_cells_x > 0) return {{"stream_cells_x", p.stream_cells_x}, {"segment_rows", p.segment_rows}};
  return {{"block_x", p.block_x}, {"block_y", p.block_y}, {"cells_per_thread", p.cells_per_thread}};
}

template <class T>
nlohmann::json bench_heat(long n, int steps, int repeats, double roof, bool variants, const std::vector<int>& fused_steps,
                          StreamHandle stream) {
  bench::HeatFields<T> fields(n);
  auto &u = fields.u, &v = fields.v;
  const mesh::Box<2>& update = fields.update;
  const kernels::stencil::HeatCoefficients<T> c{T(0.2), T(0.2)};
  const double cells = static_cast<double>(update.size()) * steps;
  const double bytes_per_cell = 2.0 * sizeof(T);

  auto measure = [&](const kernels::stencil::HeatCudaParams& p) {
    const double s = time_median(repeats, stream, [&] {
      for (int k = 0; k < steps; ++k) {
        if (k % 2 == 0) kernels::stencil::heat_step(u, v, update, c, p, stream);
        else kernels::stencil::heat_step(v, u, update, c, p, stream);
      }
    });
    const double rate = cells / s;
    return nlohmann::json{{"params", params_json(p)},
                          {"gcell_per_s", rate * 1e-9},
                          {"effective_GBps", rate * bytes_per_cell * 1e-9},
                          {"fraction_of_copy", rate * bytes_per_cell / roof}};
  };
  nlohmann::json r = {{"n", n}, {"precision", sizeof(T) == 4 ? "float" : "double"}, {"bytes_per_cell", bytes_per_cell}};
  r["default"] = measure({});
  const kernels::stencil::HeatCudaParams defaults;
  std::printf("%6ld^2 %-6s default bx=%-3d by=%-2d cpt=%d %14s %8.1f Gcell/s %7.0f GB/s  %5.1f%% of copy\n", n,
              sizeof(T) == 4 ? "float" : "double", defaults.block_x, defaults.block_y, defaults.cells_per_thread, "", r["default"]["gcell_per_s"].get<double>(),
              r["default"]["effective_GBps"].get<double>(), 100 * r["default"]["fraction_of_copy"].get<double>());
  if (variants) {
    nlohmann::json all = nlohmann::json::array();
    for (int bx : {32, 64, 128, 256})
      for (int by : {1, 2, 4, 8})
        for (int cpt : {1, 2, 4, 8}) {
          const kernels::stencil::HeatCudaParams p{bx, by, cpt};
          if (p.valid()) all.push_back(measure(p));
        }
    const auto best = std::max_element(all.begin(), all.end(), [](const auto& a, const auto& b) {
      return a["gcell_per_s"].template get<double>() < b["gcell_per_s"].template get<double>();
    });
    const nlohmann::json b = *best;
    r["variants"] = all;
    r["best"] = b;
    std::printf("%6ld^2 %-6s best    bx=%-3d by=%-2d cpt=%d %14s %8.1f Gcell/s %7.0f GB/s  %5.1f%% of copy\n", n,
                sizeof(T) == 4 ? "float" : "double", b["params"]["block_x"].get<int>(), b["params"]["block_y"].get<int>(),
                b["params"]["cells_per_thread"].get<int>(), "", b["gcell_per_s"].get<double>(),
                b["effective_GBps"].get<double>(), 100 * b["fraction_of_copy"].get<double>());
  }
  if (!fused_steps.empty()) {
    // Launches of k steps, ping-pong, the update box its own active box (its rim keeps its values).
    auto measure_fused = [&](const kernels::stencil::HeatCudaParams& p, int k) {
      const int launches = std::max(1, steps / k);
      const double s = time_median(repeats, stream, [&] {
        for (int l = 0; l < launches; ++l) {
          if (l % 2 == 0) kernels::stencil::heat_steps(u, v, update, update, k, c, p, stream);
          else kernels::stencil::heat_steps(v, u, update, update, k, c, p, stream);
        }
      });
      const double rate = static_cast<double>(update.size()) * launches * k / s;
      return nlohmann::json{{"kernel", p.stream_cells_x > 0 ? "stream" : "tile"}, {"fused_steps", k},
                            {"params", params_json(p)}, {"gcell_per_s", rate * 1e-9},
                            {"effective_GBps", rate * bytes_per_cell * 1e-9},
                            {"fraction_of_copy", rate * bytes_per_cell / roof}};
    };
    std::vector<kernels::stencil::HeatCudaParams> shapes = {{64, 2, 4}, {128, 2, 4}, {128, 1, 8}, {256, 1, 4}, {64, 4, 2}};
    for (int cells : {2, 4, 8})
      for (int rows : {128, 256, 512}) shapes.push_back({64, 2, 4, cells, rows});
    nlohmann::json all = nlohmann::json::array();
    for (const int k : fused_steps)
      for (const auto& p : shapes)
        if (p.fits_shared_memory(k, sizeof(T))) all.push_back(measure_fused(p, k));
    const auto best = *std::max_element(all.begin(), all.end(), [](const auto& a, const auto& b) {
      return a["gcell_per_s"].template get<double>() < b["gcell_per_s"].template get<double>();
    });
    r["fused"] = all;
    r["best_fused"] = best;
    for (const auto& f : all)
      std::printf("%6ld^2 %-6s fused %2d %-6s %-44s %8.1f Gcell/s  %5.2fx copy\n", n, sizeof(T) == 4 ? "float" : "double",
                  f["fused_steps"].template get<int>(), f["kernel"].template get<std::string>().c_str(), f["params"].dump().c_str(),
                  f["gcell_per_s"].template get<double>(), f["fraction_of_copy"].template get<double>());
    std::printf("%6ld^2 %-6s BEST fused %d %s %s: %.1f Gcell/s, %.2fx the copy roof\n", n, sizeof(T) == 4 ? "float" : "double",
                best["fused_steps"].template get<int>(), best["kernel"].template get<std::string>().c_str(), best["params"].dump().c_str(),
                best["gcell_per_s"].template get<double>(), best["fraction_of_copy"].template get<double>());
  }
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("heat kernel throughput against the device copy bandwidth", "heat2d_kernel");
  std::vector<long> sizes{8192, 16384};
  int steps = 20, repeats = 7;
  bool variants = false;
  std::vector<int> fused;
  std::string json_path;
  app.add_option("--sizes", sizes, "points per side")->delimiter(',');
  app.add_option("--steps", steps, "heat steps per timing");
  app.add_option("--repeats", repeats, "timings per figure (the median is kept)");
  app.add_flag("--variants", variants, "also time every launch configuration");
  app.add_option("--fused", fused, "also time launches of these many steps (tile and streaming kernels)")->delimiter(',');
  app.add_option("--json", json_path, "write the results here");
  CLI11_PARSE(app, argc, argv);
  if (!mesh::gpu_available()) {
    std::fprintf(stderr, "heat2d_kernel: no CUDA device\n");
    return 1;
  }
  Kokkos::ScopeGuard kokkos(argc, argv);
  mesh::select_gpu(0);
  mesh::Stream stream;
  const double roof = copy_bandwidth(std::size_t(2) << 30, repeats, stream.get());
  std::printf("%s: device copy %.0f GB/s (2 GiB, read + write)\n", mesh::current_gpu_description().c_str(), roof * 1e-9);
  nlohmann::json cases = nlohmann::json::array();
  for (long n : sizes) {
    cases.push_back(bench_heat<float>(n, steps, repeats, roof, variants, fused, stream.get()));
    cases.push_back(bench_heat<double>(n, steps, repeats, roof, variants, fused, stream.get()));
  }
  std::string command;
  for (int i = 0; i < argc; ++i) command += (i ? " " : "") + std::string(argv[i]);
  const nlohmann::json result = {{"benchmark", "heat2d_kernel"},
                                 {"gpu", mesh::current_gpu_description()},
                                 {"gpu_count", 1},
                                 {"commit", GRIDFLOW_GIT_HASH},
                                 {"command", command},
                                 {"copy_bandwidth_GBps", roof * 1e-9},
                                 {"cases", cases}};
  if (!json_path.empty()) std::ofstream(json_path) << result.dump(2) << '\n';
  return 0;
}
