#include "app/finite_check.hpp"

#include <fmt/format.h>

#include "mesh/check.hpp"

namespace gridflow::app {

template <class T, int Dim>
void FiniteCheck<T, Dim>::act(const RunState<T, Dim>& state, RunControl&) {
  if (state.step == state.start_step) return;  // nothing moved under the loop
  solver::PhaseScope timed(m_timer);
  for (const auto& f : state.fields.all())
    if (!state.fields.range(f.name).finite)
      throw Error(fmt::format("the solution is no longer finite at step {} (t = {:.6e}); {}", state.step, state.time, m_hint));
}

template class FiniteCheck<float, 2>;
template class FiniteCheck<double, 2>;
template class FiniteCheck<float, 3>;
template class FiniteCheck<double, 3>;

}  // namespace gridflow::app
