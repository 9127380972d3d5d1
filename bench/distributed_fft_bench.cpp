// bench/distributed_fft_bench: the distributed 3D transform (transform::DistributedFft) of an
// n^3 complex field decomposed over the ranks (one GPU each), forward + inverse, beside cuFFT's
// single-GPU 3D transform of the same size on rank 0's GPU (--cufft).
//
// Each figure is the median over --repeats of the wall time of forward + inverse, all ranks
// between two barriers (so the slowest rank counts), after one untimed pair. Before timing, the
// pair's result is checked: inverse(forward(x)) = N x to rounding, on a sample of points.
//
//   mpirun -np P distributed_fft_bench [--n 1024] [--precision float|double]
//       [--decomposition slab|pencil] [--transport nccl|mpi] [--repeats 5] [--cufft] [--json FILE]
//       [--host]   (host fields and FFTW: a check of the driver on a machine without a GPU)
#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>
#include <cufft.h>
#include <mpi.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "bench/cufft_check.hpp"
#include "gridflow/config.hpp"
#include "halo/gpu_binding.hpp"
#include "halo/transport.hpp"
#include "mesh/decomposition.hpp"
#include "mesh/device.hpp"
#include "mesh/field.hpp"
#include "transform/distributed_fft.hpp"

using namespace gridflow;

namespace {

// A cheap, reproducible value per allocated element: integer hashing, no transcendental per point.
template <class T>
T sample_value(std::size_t q, int rank) {
  const std::uint64_t h = (q + 7919u * static_cast<std::uint64_t>(rank)) * 0x9E3779B97F4A7C15ull;
  return static_cast<T>(static_cast<double>(h >> 40) / double(1ull << 24) - 0.5);
}

// The wall times (all ranks between barriers) of `repeats` calls of run(), after an untimed one.
template <class F>
std::vector<double> wall_times(int repeats, mesh::MemorySpace space, StreamHandle stream, F&& run) {
  run();
  mesh::synchronize(space, stream);
  std::vector<double> t;
  for (int r = 0; r < repeats; ++r) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    run();
    mesh::synchronize(space, stream);
    MPI_Barrier(MPI_COMM_WORLD);
    t.push_back(MPI_Wtime() - t0);
  }
  return t;
}

double median(std::vector<double> t) {
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

struct Figures {
  std::vector<double> pair_s, forward_s;
  double roundtrip_error = 0;
};

template <class T>
Figures bench_distributed(mesh::Index n, transform::FftDecomposition decomposition, halo::Transport transport,
                          mesh::MemorySpace space, int repeats, StreamHandle stream) {
  mesh::Grid<3> grid;
  grid.n = {n - 1, n - 1, n - 1};
  grid.length = {1.0, 1.0, 1.0};
  const mesh::Decomposition<3> d(grid, MPI_COMM_WORLD);
  const auto owned = transform::interleaved(d.owned());
  mesh::Field<T, 3> host(owned, 0, mesh::MemorySpace::host, "input");
  T* values = host.allocation();
  for (std::size_t q = 0; q < host.allocated_elements(); ++q) values[q] = sample_value<T>(q, d.rank());
  mesh::Field<T, 3> input(owned, 0, space, "input");
  input.copy_from(host);
  mesh::Field<T, 3> output(owned, 0, space, "output");

  transform::DistributedFftOptions options;
  options.decomposition = decomposition;
  options.transport = transport;
  transform::DistributedFft<T, 3> fft(d, transform::FftValues::complex, space, stream, options);

  Figures f;
  f.pair_s = wall_times(repeats, space, stream, [&] {
    fft.forward(input);
    fft.inverse(output);
  });
  f.forward_s = wall_times(repeats, space, stream, [&] { fft.forward(input); });

  // inverse(forward(x)) = N x, on every 4099th owned value (the sample crosses rows and planes).
  fft.forward(input);
  fft.inverse(output);
  mesh::synchronize(space, stream);
  mesh::Field<T, 3> back(owned, 0, mesh::MemorySpace::host, "back");
  back.copy_from(output);
  const double total = std::pow(static_cast<double>(n), 3);
  double diff = 0, size = 0;
  std::size_t q = 0;
  for (mesh::Index k = owned.lo[2]; k <= owned.hi[2]; ++k)
    for (mesh::Index j = owned.lo[1]; j <= owned.hi[1]; ++j)
      for (mesh::Index i = owned.lo[0]; i <= owned.hi[0]; ++i, ++q) {
        if (q % 4099) continue;
        const double expected = total * host(i, j, k);
        diff = std::max(diff, std::abs(static_cast<double>(back(i, j, k)) - expected));
        size = std::max(size, std::abs(expected));
      }
  double mine[2] = {diff, size}, all[2];
  MPI_Allreduce(mine, all, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  f.roundtrip_error = all[0] / all[1];
  return f;
}

// cuFFT's in-place 3D complex transform of n^3 points, forward + inverse, on this rank's GPU.
template <class T>
double bench_cufft(mesh::Index n, int repeats, StreamHandle stream) {
  const std::size_t bytes = static_cast<std::size_t>(n) * n * n * 2 * sizeof(T);
  mesh::Buffer data(bytes, mesh::MemorySpace::device);
  mesh::fill_device_bytes(data.data(), 0, bytes, stream);
  cufftHandle plan;
  constexpr bool single = std::is_same_v<T, float>;
  BENCH_CUFFT_CHECK(cufftPlan3d(&plan, static_cast<int>(n), static_cast<int>(n), static_cast<int>(n),
                                single ? CUFFT_C2C : CUFFT_Z2Z));
  BENCH_CUFFT_CHECK(cufftSetStream(plan, stream));
  auto pair = [&] {
    if constexpr (single) {
      auto* p = static_cast<cufftComplex*>(data.data());
      BENCH_CUFFT_CHECK(cufftExecC2C(plan, p, p, CUFFT_FORWARD));
      BENCH_CUFFT_CHECK(cufftExecC2C(plan, p, p, CUFFT_INVERSE));
    } else {
      auto* p = static_cast<cufftDoubleComplex*>(data.data());
      BENCH_CUFFT_CHECK(cufftExecZ2Z(plan, p, p, CUFFT_FORWARD));
      BENCH_CUFFT_CHECK(cufftExecZ2Z(plan, p, p, CUFFT_INVERSE));
    }
  };
  std::vector<double> t;
  pair();
  mesh::synchronize(stream);
  for (int r = 0; r < repeats; ++r) {
    const double t0 = MPI_Wtime();
    pair();
    mesh::synchronize(stream);
    t.push_back(MPI_Wtime() - t0);
  }
  cufftDestroy(plan);
  return median(t);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  CLI::App app("the distributed 3D FFT, forward + inverse, against cuFFT on one GPU", "distributed_fft_bench");
  mesh::Index n = 1024;
  int repeats = 5;
  bool cufft = false, host = false;
  std::string precision = "float", decomposition = "slab", transport = "nccl", json_path;
  app.add_option("--n", n, "points per axis");
  app.add_option("--precision", precision)->check(CLI::IsMember({"float", "double"}));
  app.add_option("--decomposition", decomposition)->check(CLI::IsMember({"slab", "pencil"}));
  app.add_option("--transport", transport)->check(CLI::IsMember({"nccl", "mpi"}));
  app.add_option("--repeats", repeats, "timings per figure (the median is kept)");
  app.add_flag("--cufft", cufft, "also time cuFFT's single-GPU 3D transform of the same size on rank 0");
  app.add_option("--json", json_path, "write the results here (rank 0)");
  app.add_flag("--host", host, "host fields and FFTW instead of the GPU (MPI transport, no --cufft)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    MPI_Finalize();
    return rc;
  }
  int status = 0;
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    try {
      if (host && (cufft || transport == "nccl")) throw Error("--host runs over --transport mpi, without --cufft");
      if (!host && !mesh::gpu_available()) throw Error("no CUDA device (--host runs on the CPU)");
      if (!host) halo::bind_gpu_by_local_rank(MPI_COMM_WORLD, /*allow_sharing=*/true);
      const bool shared = !host && halo::ranks_share_gpu(MPI_COMM_WORLD);
      const auto space = host ? mesh::MemorySpace::host : mesh::MemorySpace::device;
      std::optional<mesh::Stream> device_stream;
      if (!host) device_stream.emplace();
      const StreamHandle stream = host ? nullptr : device_stream->get();
      const auto kind = decomposition == "slab" ? transform::FftDecomposition::slab : transform::FftDecomposition::pencil;
      const auto via = transport == "nccl" ? halo::Transport::nccl : halo::Transport::mpi;
      const Figures f = precision == "float" ? bench_distributed<float>(n, kind, via, space, repeats, stream)
                                             : bench_distributed<double>(n, kind, via, space, repeats, stream);
      double cufft_s = 0;
      if (cufft && rank == 0)
        cufft_s = precision == "float" ? bench_cufft<float>(n, repeats, stream)
                                       : bench_cufft<double>(n, repeats, stream);
      if (rank == 0) {
        const double pair = median(f.pair_s), points = std::pow(static_cast<double>(n), 3);
        std::printf("%s^3 complex %s %s %s on %d rank(s)%s: forward + inverse %.2f ms, forward %.2f ms, "
                    "roundtrip error %.2e%s\n",
                    std::to_string(n).c_str(), precision.c_str(), decomposition.c_str(), transport.c_str(), ranks,
                    shared ? " sharing GPUs" : "", 1e3 * pair, 1e3 * median(f.forward_s), f.roundtrip_error,
                    cufft ? (", cuFFT on one GPU " + std::to_string(1e3 * cufft_s) + " ms").c_str() : "");
        std::string command;
        for (int i = 0; i < argc; ++i) command += (i ? " " : "") + std::string(argv[i]);
        nlohmann::json result = {{"benchmark", "distributed_fft_bench"},
                                 {"gpu", host ? std::string("host (FFTW)") : mesh::current_gpu_description()},
                                 {"gpus", ranks},
                                 {"ranks_share_gpus", shared},
                                 {"commit", GRIDFLOW_GIT_HASH},
                                 {"command", command},
                                 {"grid_points", {n, n, n}},
                                 {"precision", precision},
                                 {"decomposition", decomposition},
                                 {"transport", transport},
                                 {"timing", "median of " + std::to_string(repeats) +
                                                " wall times between barriers, after one untimed call"},
                                 {"forward_inverse_seconds", pair},
                                 {"forward_seconds", median(f.forward_s)},
                                 {"forward_inverse_all_seconds", f.pair_s},
                                 {"points_per_second", 2 * points / pair},
                                 {"roundtrip_relative_error", f.roundtrip_error}};
        if (cufft) result["cufft_one_gpu_forward_inverse_seconds"] = cufft_s;
        if (!json_path.empty()) std::ofstream(json_path) << result.dump(2) << '\n';
      }
    } catch (const std::exception& e) {
      std::fprintf(stderr, "distributed_fft_bench (rank %d): %s\n", rank, e.what());
      status = 1;
    }
  }
  if (status) MPI_Abort(MPI_COMM_WORLD, status);
  MPI_Finalize();
  return 0;
}
