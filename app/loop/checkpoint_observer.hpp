#pragma once
// CheckpointObserver<T, Dim>: writes checkpoints (every n steps or every so many wall-clock
// seconds, keeping the newest `keep`), and stops the run with a checkpoint and exit status 75
// (exit_status_checkpointed) when a stop signal arrives (stop_signals.hpp) or the run's time is
// about to run out (run.wall_limit, the batch job's limit: time_budget.hpp).
//
// Signals raise its flag, so every rank acts at the next boundary. For the clock it asks for a
// boundary every k steps, k chosen from the measured step time so that boundaries come about every
// `interval` seconds; at each it decides, from rank 0's clock, whether a timed checkpoint is due
// or the deadline is near. The checkpoint is written at the boundary itself, before the run
// concludes, so it holds the state the steps left (an iterative solver's vectors included).
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "app/deck/checkpoint_options.hpp"
#include "app/loop/observer.hpp"
#include "app/loop/stop_signals.hpp"

namespace gridflow::app {

template <class T, int Dim>
class CheckpointObserver final : public Observer<T, Dim> {
 public:
  /// Writes the run's checkpoint at `path` (collective): the problem's own content and fields.
  using Save = std::function<void(const RunState<T, Dim>& state, const std::string& path)>;

  /// `basename`: the file prefix (output.name). `seconds_left`: the time the run has from now, if
  /// limited (time_budget.hpp), with `limit_source` naming where the limit came from. `root`:
  /// whether this rank prints.
  /// `at_end`: whether a run that ends by its own rule at a step due for a checkpoint writes one
  /// there (a time-stepped run, which a later run may take further; not a concluded solve).
  CheckpointObserver(const CheckpointOptions& options, std::string basename, Save save, std::optional<double> seconds_left,
                     std::string limit_source, bool root, bool at_end = true);

  std::string name() const override { return "checkpoint"; }
  void on_start(const RunState<T, Dim>& state) override;
  std::int64_t next_step(const RunState<T, Dim>& state) const override;
  bool flag_raised() const override { return StopSignals::received() != 0; }
  void act(const RunState<T, Dim>& state, RunControl& control) override;

  /// The checkpoints written by this run, the last one last.
  const std::vector<std::string>& written() const { return m_written; }
  /// Seconds spent writing checkpoints.
  double seconds() const { return m_seconds; }

 private:
  void write(const RunState<T, Dim>& state);

  CheckpointOptions m_options;
  std::string m_basename;
  Save m_save;
  std::optional<double> m_deadline;  // MPI_Wtime() at which to stop, margin included
  double m_margin = 0;
  std::string m_limit_source;
  bool m_root;
  bool m_at_end;
  double m_interval = 1.0;      // seconds of stepping between clock boundaries
  std::int64_t m_cadence = 1;   // steps between clock boundaries: the same on every rank
  std::int64_t m_measured_step = 0;
  double m_measured_at = 0;
  double m_last_checkpoint = 0;  // MPI_Wtime() of the start or of the last checkpoint
  std::vector<std::string> m_written;
  double m_seconds = 0;
};

extern template class CheckpointObserver<float, 2>;
extern template class CheckpointObserver<double, 2>;
extern template class CheckpointObserver<float, 3>;
extern template class CheckpointObserver<double, 3>;

}  // namespace gridflow::app
