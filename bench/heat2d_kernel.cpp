// bench/heat2d_kernel: the heat kernel against the memory-bandwidth roof, measured in one run.
//
// Roof: a large device-to-device copy, counting bytes read plus written. Kernel: ping-pong heat
// steps on n x n points; a step reads and writes each cell once at best, so its effective
// bandwidth is cell updates/s x 2 sizeof(T), and the ratio to the copy is the figure of merit.
// Every figure is the median of repeated timings with CUDA events after a warm-up.
//
//   heat2d_kernel [--sizes 8192,16384] [--steps 20] [--repeats 7] [--variants] [--json FILE]
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

template <class T>
nlohmann::json bench_heat(long n, int steps, int repeats, double roof, bool variants, StreamHandle stream) {
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
    return nlohmann::json{{"params", {{"block_x", p.block_x}, {"block_y", p.block_y}, {"cells_per_thread", p.cells_per_thread}}},
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
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("heat kernel throughput against the device copy bandwidth", "heat2d_kernel");
  std::vector<long> sizes{8192, 16384};
  int steps = 20, repeats = 7;
  bool variants = false;
  std::string json_path;
  app.add_option("--sizes", sizes, "points per side")->delimiter(',');
  app.add_option("--steps", steps, "heat steps per timing");
  app.add_option("--repeats", repeats, "timings per figure (the median is kept)");
  app.add_flag("--variants", variants, "also time every launch configuration");
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
    cases.push_back(bench_heat<float>(n, steps, repeats, roof, variants, stream.get()));
    cases.push_back(bench_heat<double>(n, steps, repeats, roof, variants, stream.get()));
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
