#pragma once
// StepProgress<T, Dim>: the observer that prints a progress line on rank 0 (format_progress:
// step, time, the fields' range over all ranks, throughput and ETA) every `every` steps and at
// the last step when the loop took steps. The throughput counts the steps the loop timed
// (RunState::timed_from on).
#include <cstdint>
#include <string>
#include <utility>

#include "app/loop/observer.hpp"
#include "solver/phase_timer.hpp"

namespace gridflow::app {

template <class T, int Dim>
class StepProgress final : public Observer<T, Dim> {
 public:
  /// `field`: the one whose range is shown. `prints`: rank 0's (the others only reduce).
  StepProgress(std::int64_t every, std::string field, bool prints)
      : m_every(every), m_field(std::move(field)), m_prints(prints) {}

  std::string name() const override { return "progress"; }
  std::int64_t next_step(const RunState<T, Dim>& state) const override { return next_multiple(state.step, m_every); }
  bool acts_at_end() const override { return true; }
  /// Collective (the range).
  void act(const RunState<T, Dim>& state, RunControl& control) override;

  /// Seconds spent, its share of the range reductions included.
  double seconds() { return m_timer.seconds(); }

 private:
  std::int64_t m_every;
  std::string m_field;
  bool m_prints;
  solver::PhaseTimer m_timer{mesh::MemorySpace::host, nullptr};
};

/// Grid-point updates per second of the steps the loop timed; 0 before any.
template <class T, int Dim>
double timed_update_rate(const RunState<T, Dim>& state) {
  const double points = static_cast<double>(state.decomposition.grid().interior().size());
  return state.stepping_seconds > 0 ? points * static_cast<double>(state.step - state.timed_from) / state.stepping_seconds : 0;
}

extern template class StepProgress<float, 2>;
extern template class StepProgress<double, 2>;
extern template class StepProgress<float, 3>;
extern template class StepProgress<double, 3>;

}  // namespace gridflow::app
