// bench/whiten_bench: the spatio-temporal whitening filter on a stream of star-field frames,
// microseconds per frame on the GPU beside the CPU reference's time per frame and the roof.
//
// The roof: every frame's prediction reads the N remembered frames at least once, so reading N
// frames at the device's copy bandwidth (2 GiB copy, read + write counted) bounds a frame from
// below; a device copy of the N frames' bytes (which fits in L2 at 512^2) is timed beside it.
// Cases (float frames, memory N = 20):
//   s512   512 x 512, 1000 frames (the seed's case: 1.426 ms per frame on a GTX Titan)
//   s10mp  3162 x 3162 (10.0 Mpx), 100 frames
// The GPU stream cycles through a set of distinct star-field frames (each with its own jitter) after
// N warm-up frames; the CPU reference is timed on --cpu-frames frames after its own N warm-up
// frames (at 10 Mpx only when --cpu-large, as its warm-up alone takes minutes).
//
// --tunables threads,blocks_per_sm,rows (repeatable) times each set in turn.
//
//   whiten_bench [--cases s512,s10mp] [--frames 1000] [--large-frames 100] [--cpu-frames 3] [--cpu-large]
//                [--tunables 256,4,16 ...] [--json FILE]
#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "bench/device_timing.hpp"
#include "gridflow/config.hpp"
#include "kernels/filter/whiten.hpp"
#include "mesh/check.hpp"
#include "mesh/device.hpp"
#include "tests/whiten_test_support.hpp"

using namespace gridflow;
using namespace gridflow::kernels::filter;
using nlohmann::json;

namespace {

struct Case {
  std::string name;
  int ny, nx, frames, distinct;
};

// The CPU reference's milliseconds per pixel of the last case that timed it (for an estimate where
// a case does not).
double cpu_ms_per_pixel = 0.0;

json run_case(const Case& c, int memory, int max_refinements, int cpu_frames, bool cpu, double roof, const WhitenTunables& tunables, StreamHandle stream) {
  testing::StarFieldSpec spec;
  spec.ny = c.ny;
  spec.nx = c.nx;
  spec.frames = c.distinct;
  spec.stars = c.ny * c.nx / 270;
  const auto field = testing::make_star_field(spec);
  const std::size_t n = static_cast<std::size_t>(c.ny) * c.nx, bytes = n * sizeof(float);
  std::vector<std::vector<float>> host_frames;
  for (const auto& f : field.frames) host_frames.emplace_back(f.begin(), f.end());

  WhitenParams params;
  params.memory = memory;
  params.max_refinements = max_refinements;
  // GPU: the distinct frames resident on the device, pushed in turn.
  mesh::Buffer frames(bytes * c.distinct, mesh::MemorySpace::device), out(bytes, mesh::MemorySpace::device);
  for (int i = 0; i < c.distinct; ++i)
    mesh::copy_bytes(static_cast<char*>(frames.data()) + i * bytes, mesh::MemorySpace::device, host_frames[i].data(),
                     mesh::MemorySpace::host, bytes);
  auto frame = [&](long long t) { return reinterpret_cast<const float*>(static_cast<const char*>(frames.data()) + (t % c.distinct) * bytes); };
  Whitener<float> gpu(c.ny, c.nx, params, mesh::MemorySpace::device, tunables);
  for (int t = 0; t <= memory; ++t) gpu.push(frame(t), static_cast<float*>(out.data()), stream);
  mesh::synchronize(stream);
  mesh::Event start, stop;
  start.record(stream);
  for (int t = 0; t < c.frames; ++t) gpu.push(frame(memory + 1 + t), static_cast<float*>(out.data()), stream);
  stop.record(stream);
  stop.synchronize();
  const double gpu_us = 1e3 * mesh::Event::elapsed_ms(start, stop) / c.frames;
  const auto refinements = gpu.refinements();
  double mean_passes = 0.0;
  for (int t = memory + 1; t < static_cast<int>(refinements.size()); ++t) mean_passes += refinements[t];
  mean_passes /= c.frames;
  // Shift accuracy of the warm-up frames (the stream before it cycles).
  const auto shifts = gpu.shifts();
  double worst_shift = 0.0;
  for (int t = 0; t < std::min(c.distinct, static_cast<int>(shifts.size())); ++t)
    worst_shift = std::max({worst_shift, std::fabs(shifts[t].y - field.truth[t].y), std::fabs(shifts[t].x - field.truth[t].x)});

  // The roof: N frames read once at the copy bandwidth; and a timed copy of the same bytes.
  const double read_roof_us = 1e6 * memory * static_cast<double>(bytes) / (roof / 2.0);
  mesh::Buffer a(bytes * memory, mesh::MemorySpace::device), b(bytes * memory, mesh::MemorySpace::device);
  const double copy_us = 1e6 * bench::time_median(15, stream, [&] {
                           mesh::copy_bytes_async(b.data(), mesh::MemorySpace::device, a.data(), mesh::MemorySpace::device, bytes * memory,
                                                  stream);
                         });

  json r = {{"name", c.name},
            {"ny", c.ny},
            {"nx", c.nx},
            {"precision", "float"},
            {"memory", memory},
            {"max_refinements", max_refinements},
            {"weights", to_string(params.weights)},
            {"tunables", {{"threads", tunables.threads}, {"blocks_per_sm", tunables.blocks_per_sm}, {"rows", tunables.rows}}},
            {"gpu_frames_timed", c.frames},
            {"distinct_frames", c.distinct},
            {"gpu_us_per_frame", gpu_us},
            {"mean_shift_passes", mean_passes},
            {"worst_shift_error_px_first_frames", worst_shift},
            {"read_N_frames_roof_us", read_roof_us},
            {"copy_N_frames_us", copy_us},
            {"ratio_to_roof", gpu_us / read_roof_us}};
  std::ostringstream tun;
  tun << tunables;
  std::printf("%-6s %dx%d N=%d %s: GPU %8.1f us/frame (%.2f shift passes), roof (read N frames) %6.1f us -> %.2fx roof; copy of N frames %6.1f us\n",
              c.name.c_str(), c.ny, c.nx, memory, tun.str().c_str(), gpu_us, mean_passes, read_roof_us, gpu_us / read_roof_us, copy_us);
  if (cpu) {
    Whitener<float> host(c.ny, c.nx, params, mesh::MemorySpace::host);
    std::vector<float> host_out(n);
    for (int t = 0; t <= memory; ++t) host.push(host_frames[t % c.distinct].data(), host_out.data(), nullptr);
    const auto t0 = std::chrono::steady_clock::now();
    for (int t = 0; t < cpu_frames; ++t) host.push(host_frames[(memory + 1 + t) % c.distinct].data(), host_out.data(), nullptr);
    const double cpu_ms = 1e3 * std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / cpu_frames;
    r["cpu_ms_per_frame"] = cpu_ms;
    r["cpu_frames_timed"] = cpu_frames;
    r["cpu_over_gpu"] = cpu_ms * 1e3 / gpu_us;
    std::printf("%-6s CPU reference (one core) %9.1f ms/frame over %d frames: %.0fx the GPU\n", c.name.c_str(), cpu_ms, cpu_frames,
                cpu_ms * 1e3 / gpu_us);
    cpu_ms_per_pixel = cpu_ms / static_cast<double>(n);
  } else if (cpu_ms_per_pixel > 0.0) {
    // Not timed (its N warm-up frames alone take minutes): the reference's cost is linear in the
    // pixels at fixed N, so the last timed case's cost per pixel scaled, marked as an estimate.
    const double cpu_ms = cpu_ms_per_pixel * static_cast<double>(n);
    r["cpu_ms_per_frame_estimated_from_pixels"] = cpu_ms;
    std::printf("%-6s CPU reference estimated %9.1f ms/frame (per-pixel cost of the timed case): %.0fx the GPU\n", c.name.c_str(),
                cpu_ms, cpu_ms * 1e3 / gpu_us);
  }
  std::fflush(stdout);
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("spatio-temporal whitening on the GPU against the CPU reference and the read roof", "whiten_bench");
  std::vector<std::string> cases{"s512", "s10mp"};
  int frames = 1000, large_frames = 100, cpu_frames = 3, memory = 20, max_refinements = WhitenParams{}.max_refinements;
  bool cpu_large = false;
  std::string json_path;
  std::vector<std::string> tunable_sets;
  app.add_option("--cases", cases, "cases to run")->delimiter(',');
  app.add_option("--frames", frames, "GPU frames timed at 512^2");
  app.add_option("--large-frames", large_frames, "GPU frames timed at 10 Mpx");
  app.add_option("--cpu-frames", cpu_frames, "CPU reference frames timed (0: none)");
  app.add_option("--memory", memory, "N, the frames remembered");
  app.add_option("--max-refinements", max_refinements, "most shift passes per frame (fewer: to time a pass)");
  app.add_flag("--cpu-large", cpu_large, "time the CPU reference at 10 Mpx too");
  app.add_option("--json", json_path, "write the results here");
  app.add_option("--tunables", tunable_sets, "threads,blocks_per_sm,rows of the CUDA kernels (repeatable)");
  CLI11_PARSE(app, argc, argv);
  std::vector<WhitenTunables> tunables;
  for (const auto& text : tunable_sets) {
    WhitenTunables t;
    char tail = 0;
    if (std::sscanf(text.c_str(), "%d,%d,%d%c", &t.threads, &t.blocks_per_sm, &t.rows, &tail) != 3 || !t.valid()) {
      std::fprintf(stderr, "whiten_bench: --tunables '%s' is not threads,blocks_per_sm,rows of valid tunables\n",
                   text.c_str());
      return 2;
    }
    tunables.push_back(t);
  }
  if (tunables.empty()) tunables.emplace_back();
  if (!mesh::gpu_available()) {
    std::fprintf(stderr, "whiten_bench: no CUDA device\n");
    return 1;
  }
  Kokkos::ScopeGuard kokkos(argc, argv);
  mesh::select_gpu(0);
  mesh::Stream stream;
  const double roof = bench::copy_bandwidth(std::size_t(2) << 30, 7, stream.get());
  std::printf("%s: device copy %.0f GB/s (2 GiB, read + write)\n", mesh::current_gpu_description().c_str(), roof * 1e-9);
  json results = json::array();
  for (const auto& name : cases)
    if (name != "s512" && name != "s10mp") {
      std::fprintf(stderr, "whiten_bench: unknown case '%s' (s512, s10mp)\n", name.c_str());
      return 2;
    }
  for (const auto& t : tunables)
    for (const auto& name : cases) {
      const bool first = &t == &tunables.front();  // the CPU reference once
      if (name == "s512")
        results.push_back(run_case({name, 512, 512, frames, 40}, memory, max_refinements, cpu_frames, first && cpu_frames > 0, roof, t, stream.get()));
      else
        results.push_back(
            run_case({name, 3162, 3162, large_frames, 24}, memory, max_refinements, cpu_frames, first && cpu_large && cpu_frames > 0, roof, t, stream.get()));
    }
  std::string command;
  for (int i = 0; i < argc; ++i) command += (i ? " " : "") + std::string(argv[i]);
  const json result = {{"benchmark", "whiten_bench"}, {"gpu", mesh::current_gpu_description()}, {"gpu_count", 1},
                       {"commit", GRIDFLOW_GIT_HASH},  {"command", command},                     {"copy_bandwidth_GBps", roof * 1e-9},
                       {"cases", results}};
  if (!json_path.empty()) std::ofstream(json_path) << result.dump(2) << '\n';
  return 0;
}
