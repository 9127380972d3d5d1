#include "app/run/run_setup.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include "app/run/memory_check.hpp"
#include "app/loop/stop_signals.hpp"
#include "gridflow/config.hpp"
#include "halo/gpu_binding.hpp"
#include "mesh/check.hpp"
#include "mesh/rank0_error.hpp"
#include "mesh/device.hpp"

namespace gridflow::app {

namespace fs = std::filesystem;

namespace {
constexpr std::size_t max_text_file = std::size_t(1) << 20;  // 1 MiB: the largest sample deck is a few KiB

/// A pipe read to its end (at most `limit` bytes): "" or the error. Opened without blocking and
/// polled, so a pipe nobody writes to ends with a stop signal (SIGTERM, SIGINT) instead of
/// waiting in open() for ever.
std::string read_pipe(const std::string& path, std::size_t limit, std::string& text) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return std::string("cannot open: ") + std::strerror(errno);
  std::string error;
  char buffer[65536];
  while (error.empty()) {
    pollfd ready{fd, POLLIN, 0};
    const int polled = ::poll(&ready, 1, 200);
    if (StopSignals::received() != 0) {
      error = std::string("no deck read from the pipe before ") + StopSignals::name(StopSignals::received());
      break;
    }
    if (polled < 0 && errno == EINTR) continue;
    if (polled < 0) error = std::string("cannot read: ") + std::strerror(errno);
    if (polled <= 0) continue;
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got == 0) break;  // the writer closed it: the end
    if (got < 0) {
      if (errno != EAGAIN && errno != EINTR) error = std::string("cannot read: ") + std::strerror(errno);
      continue;
    }
    text.append(buffer, static_cast<std::size_t>(got));
    if (text.size() > limit) error = "larger than " + std::to_string(limit / 1024) + " KiB; an input deck is a short text file";
  }
  ::close(fd);
  return error;
}
}  // namespace

std::string read_text_on_rank0(const std::string& path, const std::string& what, MPI_Comm comm) {
  int rank = 0;
  GRIDFLOW_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  std::string text, error;
  if (rank == 0) {
    const std::string name = what + " '" + path + "': ";
    std::error_code ec;
    const auto status = fs::status(path, ec);
    // A device (/dev/zero), a directory or a socket is no text file; a pipe (<(...)) is, read
    // within the same bound.
    if (!ec && !fs::is_regular_file(status) && !fs::is_fifo(status)) {
      error = name + "not a regular file";
    } else if (!ec && fs::is_regular_file(status) && fs::file_size(path, ec) > max_text_file && !ec) {
      error = name + "larger than " + std::to_string(max_text_file / 1024) + " KiB; an input deck is a short text file";
    } else if (!ec && fs::is_fifo(status)) {
      const std::string why = read_pipe(path, max_text_file, text);
      if (!why.empty()) error = name + why;
    } else {
      errno = 0;
      std::ifstream in(path, std::ios::binary);
      if (!in) {
        error = name + "cannot open: " + std::strerror(errno);
      } else {
        // Read at most one byte past the bound: a file that grows, or reports no size, stops there.
        text.resize(max_text_file + 1);
        in.read(text.data(), static_cast<std::streamsize>(text.size()));
        text.resize(static_cast<std::size_t>(in.gcount()));
        if (in.bad()) error = name + "cannot read: " + std::strerror(errno);
        else if (text.size() > max_text_file)
          error = name + "larger than " + std::to_string(max_text_file / 1024) + " KiB; an input deck is a short text file";
      }
    }
  }
  share_rank0_input_error(error, comm);
  unsigned long long length = text.size();
  GRIDFLOW_MPI_CHECK(MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG_LONG, 0, comm));
  text.resize(length);
  GRIDFLOW_MPI_CHECK(MPI_Bcast(text.data(), static_cast<int>(length), MPI_CHAR, 0, comm));
  return text;
}

mesh::MemorySpace resolve_device(const solver::RunOptions& options, MPI_Comm comm) {
  if (options.device == "cpu") return mesh::MemorySpace::host;
  int local = mesh::gpu_available() ? 1 : 0, all = 0;
  GRIDFLOW_MPI_CHECK(MPI_Allreduce(&local, &all, 1, MPI_INT, MPI_MIN, comm));
  if (!all) {
    if (options.device == "auto") return mesh::MemorySpace::host;
    throw InputError(std::string("key 'device': 'gpu' asked for, but ") +
                     (GRIDFLOW_HAVE_CUDA ? "no CUDA device is visible to every rank"
                                         : "this gridflow was built without CUDA"));
  }
  halo::bind_gpu_by_local_rank(comm, options.device_sharing);
  return mesh::MemorySpace::device;
}

template <int Dim>
RunPlacement<Dim> place_run(const solver::RunOptions& options, const mesh::Grid<Dim>& grid, MPI_Comm comm) {
  const mesh::MemorySpace space = resolve_device(options, comm);
  const halo::Transport transport = halo::resolve_transport(options.halo_transport, space, comm);
  std::array<int, Dim> dims{};
  for (int d = 0; d < Dim; ++d) dims[d] = options.decomposition[d];
  return {space, transport, mesh::Decomposition<Dim>(grid, comm, dims, options.halo_width), nullptr};
}

template RunPlacement<2> place_run<2>(const solver::RunOptions&, const mesh::Grid<2>&, MPI_Comm);
template RunPlacement<3> place_run<3>(const solver::RunOptions&, const mesh::Grid<3>&, MPI_Comm);

template <int Dim>
RunPlacement<Dim> prepare_run(const solver::RunOptions& options, const mesh::Grid<Dim>& grid, const std::string& summary_path,
                              MPI_Comm comm, const MemoryEstimate<Dim>& estimate) {
  auto place = place_run(options, grid, comm);
  require_memory(estimate(place), place.space, comm);
  if (options.output_enabled) {
    prepare_output_directory(options.output_dir, comm);
    place.output_lock = lock_output_series(options.output_dir, options.output_name, comm);
  }
  prepare_summary_file(summary_path, comm);
  return place;
}

template RunPlacement<2> prepare_run<2>(const solver::RunOptions&, const mesh::Grid<2>&, const std::string&, MPI_Comm,
                                        const MemoryEstimate<2>&);
template RunPlacement<3> prepare_run<3>(const solver::RunOptions&, const mesh::Grid<3>&, const std::string&, MPI_Comm,
                                        const MemoryEstimate<3>&);

void prepare_output_directory(const std::string& directory, MPI_Comm comm) {
  int rank = 0;
  GRIDFLOW_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  std::string error;
  if (rank == 0) {
    std::error_code ec;
    fs::create_directories(directory, ec);
    if (ec) {
      error = "key 'output.dir': cannot create directory '" + directory + "': " + ec.message();
    } else if (!fs::is_directory(directory)) {
      error = "key 'output.dir': '" + directory + "' exists and is not a directory";
    } else {
      const fs::path probe = fs::path(directory) / ".gridflow-write-probe";
      std::ofstream out(probe);
      if (!out) error = "key 'output.dir': directory '" + directory + "' is not writable: " + std::strerror(errno);
      out.close();
      fs::remove(probe, ec);
    }
  }
  share_rank0_input_error(error, comm);
}

std::unique_ptr<io::OutputLock> lock_output_series(const std::string& directory, const std::string& name, MPI_Comm comm) {
  int rank = 0;
  GRIDFLOW_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  std::unique_ptr<io::OutputLock> lock;
  std::string error;
  if (rank == 0) {
    try {
      lock = std::make_unique<io::OutputLock>((fs::path(directory) / (name + ".lock")).string());
      if (!lock->note().empty()) std::fprintf(stderr, "gridflow: warning: %s\n", lock->note().c_str());
    } catch (const std::exception& e) {
      error = e.what();
    }
  }
  share_rank0_input_error(error, comm);
  return lock;
}

void prepare_summary_file(const std::string& path, MPI_Comm comm) {
  if (path.empty()) return;  // the same on every rank
  int rank = 0;
  GRIDFLOW_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  std::string error;
  if (rank == 0) {
    std::error_code ec;
    const bool existed = fs::exists(path, ec);
    if (fs::is_directory(path, ec)) {
      error = "--summary '" + path + "': is a directory";
    } else {
      errno = 0;
      std::FILE* f = std::fopen(path.c_str(), "a");
      if (!f) {
        error = "--summary '" + path + "': cannot open for writing: " + std::strerror(errno);
      } else {
        std::fclose(f);
        if (!existed) fs::remove(path, ec);
      }
    }
  }
  share_rank0_input_error(error, comm);
}

}  // namespace gridflow::app
