#include "solver/jacobi_solver.hpp"

#include <utility>

namespace gridflow::solver {

template <class T>
JacobiSolver<T>::JacobiSolver(const PoissonContext& context, std::optional<JacobiOnlineTuning> tuning)
    : m_context(context), m_tuning(std::move(tuning)), m_tunables(default_jacobi_tunables(context)) {}

template <class T>
SolveReport JacobiSolver<T>::solve(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, double b_norm,
                                   const std::function<void(const ResidualRecord&)>& progress) {
  JacobiIteration<T> iteration(m_context, u, f, b_norm, progress, default_jacobi_tunables(m_context));
  if (m_tuning) {
    const auto result = tune_jacobi(iteration, m_context, m_tuning->ghost_width, jacobi_tuning_sweeps(m_context.config));
    if (m_tuning->on_tuned) m_tuning->on_tuned(result);
  }
  const int chosen = iteration.tunables().ghost_width;
  const halo::ExchangeTally after_tuning = iteration.exchanges_by_width();
  iteration.advance(m_context.config.max_iterations);
  m_tunables = iteration.tunables();
  const SolveReport report = iteration.finish();
  m_ghost_width_use = solver::ghost_width_use(chosen, after_tuning, iteration.exchanges_by_width());
  return report;
}

template class JacobiSolver<float>;
template class JacobiSolver<double>;

}  // namespace gridflow::solver
