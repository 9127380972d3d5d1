#include "app/loop/solve_outcome_line.hpp"

#include <cstdio>

namespace gridflow::app {

template <class T>
void SolveOutcomeLine<T>::act(const RunState<T, 3>& state, RunControl&) {
  if (!m_prints) return;
  const auto& report = m_stepping.report();
  const std::optional<double> error = m_error ? m_error->value() : std::nullopt;
  // A solve stopped with a checkpoint is not over: a restart continues it.
  const char* outcome = report.converged                                 ? "converged"
                        : state.stop && state.stop->checkpointed() ? "paused (to be continued from its checkpoint)"
                                                                           : "NOT converged";
  std::printf("%s: %s after %lld iteration(s), relative residual %.6e, %.3f s%s\n", outcome,
              m_solver_name.c_str(), static_cast<long long>(report.iterations), report.relative_residual, report.seconds,
              error ? (", max error against poisson.exact " + std::to_string(*error)).c_str() : "");
  std::fflush(stdout);
}

template class SolveOutcomeLine<float>;
template class SolveOutcomeLine<double>;

}  // namespace gridflow::app
