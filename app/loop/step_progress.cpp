#include "app/loop/step_progress.hpp"

#include <cstdio>

#include "app/loop/progress.hpp"

namespace gridflow::app {

template <class T, int Dim>
void StepProgress<T, Dim>::act(const RunState<T, Dim>& state, RunControl&) {
  if (state.step == state.start_step) return;  // nothing moved under the loop
  const double rate = timed_update_rate(state);
  solver::PhaseScope timed(m_timer);
  const GlobalRange range = state.fields.range(m_field);
  if (!m_prints) return;
  const double points = static_cast<double>(state.decomposition.grid().interior().size());
  const double eta = rate > 0 ? points * static_cast<double>(state.last_step - state.step) / rate : -1;
  std::puts(format_progress({state.step, state.last_step, state.time, range.min, range.max, rate, eta}).c_str());
  std::fflush(stdout);
}

template class StepProgress<float, 2>;
template class StepProgress<double, 2>;
template class StepProgress<float, 3>;
template class StepProgress<double, 3>;

}  // namespace gridflow::app
