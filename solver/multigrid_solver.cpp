#include "solver/multigrid_solver.hpp"

#include <mpi.h>

#include <cmath>

#include "kernels/multigrid/vector_ops.hpp"

namespace gridflow::solver {

namespace mg = kernels::multigrid;

template <class T>
MultigridSolver<T>::MultigridSolver(const PoissonContext& context) : m_context(context), m_hierarchy(context) {}

template <class T>
SolveReport MultigridSolver<T>::solve(mesh::Field<T, 3>& u_in, const mesh::Field<T, 3>& f_in, double b_norm,
                                      const std::function<void(const ResidualRecord&)>& progress) {
  const auto& c = m_context;
  const double t0 = MPI_Wtime();
  const auto& owned = c.decomposition.owned();
  const auto updated = owned.intersect(c.decomposition.grid().interior());
  // The caller's fields have the run's ghost width; the grid transfers may need wider ghosts.
  auto u = make_field("mg_solution");
  auto f = make_field("mg_rhs");
  mg::copy(u_in, *u, owned, c.stream);
  mg::copy(f_in, *f, updated, c.stream);

  SolveReport report;
  const auto record = [&](std::int64_t cycles) {
    const double r = m_hierarchy.residual_norm(*u, *f) / b_norm;
    const ResidualRecord entry{cycles, r, MPI_Wtime() - t0};
    report.history.push_back(entry);
    if (progress) progress(entry);
    report.relative_residual = r;
    report.converged = r <= c.config.tolerance;
    return std::isfinite(r);
  };
  bool finite = record(0);
  while (finite && !report.converged && report.iterations < c.config.max_iterations) {
    m_hierarchy.cycle(*u, *f);
    ++report.iterations;
    finite = record(report.iterations);
  }
  mg::copy(*u, u_in, updated, c.stream);
  if (c.space == mesh::MemorySpace::device) mesh::synchronize(c.stream);
  report.seconds = MPI_Wtime() - t0;
  return report;
}

template <class T>
void MultigridSolver<T>::precondition(const mesh::Field<T, 3>& r, mesh::Field<T, 3>& e) {
  mg::fill_zero(e, m_context.stream);
  m_hierarchy.cycle(e, r);
}

template class MultigridSolver<float>;
template class MultigridSolver<double>;

}  // namespace gridflow::solver
