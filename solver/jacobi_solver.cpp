#include "solver/jacobi_solver.hpp"

#include <utility>

namespace gridflow::solver {

template <class T>
JacobiSolver<T>::JacobiSolver(const PoissonContext& context, std::optional<JacobiOnlineTuning> tuning,
                              std::optional<JacobiTunables> start_tunables)
    : m_context(context),
      m_tuning(std::move(tuning)),
      m_start(start_tunables.value_or(default_jacobi_tunables(context))),
      m_tunables(m_start) {}

template <class T>
std::unique_ptr<PoissonSolve<T>> JacobiSolver<T>::start(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, double b_norm,
                                                        std::function<void(const ResidualRecord&)> progress) {
  auto iteration =
      std::make_unique<JacobiIteration<T>>(m_context, u, f, b_norm, std::move(progress), m_start);
  if (m_tuning) {
    const auto result = tune_jacobi(*iteration, m_context, m_tuning->ghost_width, jacobi_tuning_sweeps(m_context.config));
    if (m_tuning->on_tuned) m_tuning->on_tuned(result);
  }
  iteration->mark_tuning_end();
  m_tunables = iteration->tunables();  // the tuning's choice, kept for the rest of the solve
  return iteration;
}

template class JacobiSolver<float>;
template class JacobiSolver<double>;

}  // namespace gridflow::solver
