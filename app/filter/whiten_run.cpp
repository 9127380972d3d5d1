#include "app/filter/whiten_run.hpp"

#include <algorithm>
#include <chrono>
#include <optional>
#include <vector>

#include "app/filter/chunk_progress.hpp"
#include "kernels/filter/whiten.hpp"
#include "mesh/check.hpp"
#include "mesh/device.hpp"

namespace gridflow::app {

namespace {

namespace kf = kernels::filter;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

constexpr double host_budget_bytes = 1.0 * (1u << 30);  // without --buffer-mb
constexpr double device_budget_share = 0.5;             // of the GPU's free memory, without --buffer-mb

template <class T>
FilterRunReport run_typed(const FilterRequest& request, const io::ArrayReader& reader, io::ArrayWriter& writer, mesh::MemorySpace space,
                          MPI_Comm comm) {
  const auto start = Clock::now();
  int rank = 0;
  GRIDFLOW_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  const auto& extent = reader.shape().extent;
  const long long frames = static_cast<long long>(extent[0]);
  const int ny = static_cast<int>(extent[1]), nx = static_cast<int>(extent[2]);
  const std::size_t frame_values = static_cast<std::size_t>(ny) * static_cast<std::size_t>(nx);
  const bool device = space == mesh::MemorySpace::device;

  // Frames per chunk: a host chunk in and out (and the same on the GPU), the Whitener's two rings of N + 1 frames
  // (built first, so the free memory measured below is what is left beside them).
  const double frame_bytes = static_cast<double>(frame_values * sizeof(T));
  const double given = request.arguments.buffer_mb * (1 << 20);
  auto frames_within = [&](double budget) { return std::max(1LL, static_cast<long long>(budget / (2 * frame_bytes))); };
  long long chunk = frames_within(given > 0 ? given : host_budget_bytes);
  kf::WhitenParams params;
  params.memory = request.arguments.memory;
  params.ridge = request.arguments.ridge;
  std::optional<kf::Whitener<T>> whitener;
  if (rank == 0) {
    whitener.emplace(ny, nx, params, space);
    if (device) {
      const double free = device_budget_share * static_cast<double>(mesh::current_gpu_memory().free_bytes);
      chunk = std::min(chunk, frames_within(given > 0 ? given : free));
    }
  }
  chunk = std::min(chunk, frames);
  GRIDFLOW_MPI_CHECK(MPI_Bcast(&chunk, 1, MPI_LONG_LONG, 0, comm));
  const long long steps = (frames + chunk - 1) / chunk;

  FilterRunReport report;
  report.chunks = steps;
  report.chunk_rows = chunk;
  report.kernel_path = device ? "whiten cuda" : "whiten host";
  std::vector<T> in, out;
  mesh::Buffer device_in, device_out;
  std::optional<mesh::Stream> stream;
  if (rank == 0) {
    in.resize(chunk * frame_values);
    out.resize(chunk * frame_values);
    if (device) {
      device_in = mesh::Buffer(in.size() * sizeof(T), space);
      device_out = mesh::Buffer(out.size() * sizeof(T), space);
      stream.emplace();
    }
  }
  ChunkProgress progress(frames, rank == 0, "frames");
  for (long long step = 0; step < steps; ++step) {
    const long long f0 = step * chunk, count = rank == 0 ? std::min(chunk, frames - f0) : 0;
    const io::ArrayBlock block{{static_cast<hsize_t>(f0), 0, 0},
                               {static_cast<hsize_t>(count), static_cast<hsize_t>(ny), static_cast<hsize_t>(nx)},
                               {frame_values, static_cast<hsize_t>(nx), 1}};
    T idle{};
    auto t = Clock::now();
    reader.read(block, rank == 0 ? in.data() : &idle);
    report.read += seconds_since(t);
    if (rank == 0) {
      const std::size_t bytes = static_cast<std::size_t>(count) * frame_values * sizeof(T);
      if (device) {
        t = Clock::now();
        mesh::copy_bytes(device_in.data(), space, in.data(), mesh::MemorySpace::host, bytes);
        report.copy += seconds_since(t);
        t = Clock::now();
        for (long long k = 0; k < count; ++k)
          whitener->push(static_cast<const T*>(device_in.data()) + k * frame_values, static_cast<T*>(device_out.data()) + k * frame_values,
                         stream->get());
        mesh::synchronize(stream->get());
        report.filter += seconds_since(t);
        t = Clock::now();
        mesh::copy_bytes(out.data(), mesh::MemorySpace::host, device_out.data(), space, bytes);
        report.copy += seconds_since(t);
      } else {
        t = Clock::now();
        for (long long k = 0; k < count; ++k) {
          whitener->push(in.data() + k * frame_values, out.data() + k * frame_values, nullptr);
          progress.done(f0 + k + 1);
        }
        report.filter += seconds_since(t);
      }
    }
    t = Clock::now();
    writer.write(block, rank == 0 ? out.data() : &idle);
    report.write += seconds_since(t);
    progress.done(f0 + chunk);
  }
  std::vector<double> shifts;
  if (rank == 0)
    for (const kf::WhitenShift& s : whitener->shifts()) shifts.push_back(s.y), shifts.push_back(s.x);
  writer.add_small_array(whiten_shifts_name, {static_cast<hsize_t>(frames), 2}, shifts);
  report.total = seconds_since(start);
  return report;
}

}  // namespace

FilterRunReport run_whiten(const FilterRequest& request, const io::ArrayReader& reader, io::ArrayWriter& writer, mesh::MemorySpace space,
                           MPI_Comm comm) {
  if (request.output_type() == io::ElementType::float32) return run_typed<float>(request, reader, writer, space, comm);
  return run_typed<double>(request, reader, writer, space, comm);
}

}  // namespace gridflow::app
