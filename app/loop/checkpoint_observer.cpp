#include "app/loop/checkpoint_observer.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "io/checkpoint_file.hpp"
#include "mesh/check.hpp"

namespace gridflow::app {

template <class T, int Dim>
CheckpointObserver<T, Dim>::CheckpointObserver(const CheckpointOptions& options, std::string basename, Save save,
                                               std::optional<double> seconds_left, std::string limit_source, bool root,
                                               bool at_end)
    : m_options(options), m_basename(std::move(basename)), m_save(std::move(save)), m_limit_source(std::move(limit_source)),
      m_root(root), m_at_end(at_end) {
  const double now = MPI_Wtime();
  if (seconds_left) {
    m_margin = m_options.margin_for(*seconds_left);
    m_deadline = now + *seconds_left - m_margin;
    // Boundaries come often enough that the stop falls well inside the margin.
    m_interval = std::min(m_interval, std::max(0.01, m_margin / 4));
  }
  if (m_options.every_seconds > 0) m_interval = std::min(m_interval, std::max(0.01, m_options.every_seconds / 4));
  m_last_checkpoint = now;
}

template <class T, int Dim>
void CheckpointObserver<T, Dim>::on_start(const RunState<T, Dim>& state) {
  m_measured_step = state.step;
  m_measured_at = MPI_Wtime();
  if (m_root && m_deadline) {
    std::printf("  time limit: %s; stopping with a checkpoint %.1f s before it\n", m_limit_source.c_str(), m_margin);
    std::fflush(stdout);
  }
}

template <class T, int Dim>
std::int64_t CheckpointObserver<T, Dim>::next_step(const RunState<T, Dim>& state) const {
  return std::min(next_multiple(state.step, m_options.every_steps), next_multiple(state.step, m_cadence));
}

template <class T, int Dim>
void CheckpointObserver<T, Dim>::write(const RunState<T, Dim>& state) {
  const double started = MPI_Wtime();
  std::error_code ec;
  if (state.decomposition.rank() == 0) std::filesystem::create_directories(m_options.dir, ec);
  GRIDFLOW_MPI_CHECK(MPI_Barrier(state.comm()));  // the folder exists before any rank opens the file
  const std::string path = (std::filesystem::path(m_options.dir) / io::checkpoint_file_name(m_basename, state.step)).string();
  m_save(state, path);
  io::prune_checkpoints(m_options.dir, m_basename, m_options.keep, state.comm());
  m_written.push_back(path);
  m_last_checkpoint = MPI_Wtime();
  m_seconds += m_last_checkpoint - started;
  if (m_root) {
    std::printf("checkpoint: step %lld -> %s\n", static_cast<long long>(state.step), path.c_str());
    std::fflush(stdout);
  }
}

template <class T, int Dim>
void CheckpointObserver<T, Dim>::act(const RunState<T, Dim>& state, RunControl& control) {
  const double now = MPI_Wtime();
  // One reduction: signal (any rank), deadline and timed checkpoint (rank 0's clock, so every
  // rank decides alike), seconds per step (the slowest rank's).
  const bool root_rank = state.decomposition.rank() == 0;
  const double steps = static_cast<double>(std::max<std::int64_t>(1, state.step - m_measured_step));
  double local[4] = {static_cast<double>(StopSignals::received()),
                     root_rank && m_deadline && now >= *m_deadline ? 1.0 : 0.0,
                     root_rank && m_options.every_seconds > 0 && now - m_last_checkpoint >= m_options.every_seconds ? 1.0 : 0.0,
                     (now - m_measured_at) / steps};
  double agreed[4];
  GRIDFLOW_MPI_CHECK(MPI_Allreduce(local, agreed, 4, MPI_DOUBLE, MPI_MAX, state.comm()));
  // Boundaries about every m_interval seconds, growing at most tenfold at a time (the first steps
  // may be slow: caches, first launches).
  const double per_step = agreed[3];
  const auto wanted = per_step > 0 ? static_cast<std::int64_t>(std::floor(m_interval / per_step)) : m_cadence * 10;
  m_cadence = std::clamp<std::int64_t>(wanted, 1, m_cadence * 10);
  m_measured_step = state.step;
  m_measured_at = now;
  const bool by_steps = m_options.every_steps > 0 && state.step % m_options.every_steps == 0;
  if (state.ending) {  // complete: a checkpoint only where one is due (a later run may go further)
    if (by_steps && m_at_end) write(state);
    return;
  }
  const int signal = static_cast<int>(agreed[0]);
  if (signal != 0 || agreed[1] != 0) {
    write(state);
    const std::string why = signal != 0 ? std::string("received ") + StopSignals::name(signal)
                                        : "the time limit (" + m_limit_source + ") is less than " +
                                              std::to_string(static_cast<long long>(std::ceil(m_margin))) + " s away";
    control.request_stop(why + "; checkpoint " + m_written.back() + " written", exit_status_checkpointed);
    return;
  }
  if (by_steps || agreed[2] != 0) write(state);
}

template class CheckpointObserver<float, 2>;
template class CheckpointObserver<double, 2>;
template class CheckpointObserver<float, 3>;
template class CheckpointObserver<double, 3>;

}  // namespace gridflow::app
