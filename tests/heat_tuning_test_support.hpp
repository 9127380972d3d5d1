#pragma once
// A heat run with on-line tuning, in-process: tune during the first steps, take the rest with the
// choice, and gather the final field on every rank (row-major, j * (n0 + 1) + i).
#include <mpi.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "heat_test_support.hpp"
#include "solver/heat_tuning.hpp"

namespace gridflow::testing {

template <class T>
struct TunedHeatRun {
  solver::HeatTuningResult tuning;
  std::vector<T> field;
};

template <class T>
TunedHeatRun<T> run_heat_tuned(const solver::HeatConfig& config, MPI_Comm comm, mesh::MemorySpace space = mesh::MemorySpace::host) {
  const mesh::Decomposition<2> decomposition(config.grid, comm, {config.run.decomposition[0], config.run.decomposition[1]},
                                             config.run.halo_width);
  std::optional<mesh::Stream> stream;
  if (space == mesh::MemorySpace::device) stream.emplace();
  const StreamHandle s = stream ? stream->get() : nullptr;
  const auto ghost_width = solver::plan_ghost_width(config.run, decomposition);
  solver::HeatSolver<T> solver(config, decomposition, space, s, halo::Transport::mpi, {}, ghost_width.capacity());
  TunedHeatRun<T> run{solver::tune_heat(solver, config, decomposition, space, s, ghost_width, config.steps), {}};
  solver.advance(config.steps - solver.step());
  run.field = gather_owned(solver.solution(), decomposition.owned(), config.grid.points(), comm, s);
  return run;
}

/// A cache file path in the temporary directory, the same on every rank of `comm` (rank 0's pid).
inline std::string shared_scratch_cache(const std::string& name, MPI_Comm comm) {
  long long pid = static_cast<long long>(::getpid());
  MPI_Bcast(&pid, 1, MPI_LONG_LONG, 0, comm);
  return (std::filesystem::temp_directory_path() / ("gridflow_" + name + "_" + std::to_string(pid) + ".json")).string();
}

/// A tuning cache file of its own for one test, the same path on every rank of `comm`; removed
/// (with its lock) when the test is done.
class ScratchCache {
 public:
  ScratchCache(const std::string& name, MPI_Comm comm) : m_path(shared_scratch_cache(name, comm)), m_comm(comm) {}
  ~ScratchCache() {
    MPI_Barrier(m_comm);
    int rank = 0;
    MPI_Comm_rank(m_comm, &rank);
    if (rank != 0) return;
    std::filesystem::remove(m_path);
    std::filesystem::remove(m_path + ".lock");
  }
  ScratchCache(const ScratchCache&) = delete;
  ScratchCache& operator=(const ScratchCache&) = delete;
  const std::string& path() const { return m_path; }
  /// The deck override that points a run at this cache.
  std::string key() const { return "tuning.cache=" + m_path; }

 private:
  std::string m_path;
  MPI_Comm m_comm;
};

}  // namespace gridflow::testing
