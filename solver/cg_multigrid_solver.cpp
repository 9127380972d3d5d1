#include "solver/cg_multigrid_solver.hpp"

#include <mpi.h>

#include "kernels/multigrid/vector_ops.hpp"
#include "kernels/stencil/jacobi.hpp"

namespace gridflow::solver {

namespace mg = kernels::multigrid;

namespace {
template <class T>
kernels::stencil::PoissonCoefficients<T> coefficients_of(const mesh::Grid<3>& g) {
  return kernels::stencil::poisson_coefficients<T>(g.spacing(0), g.spacing(1), g.spacing(2));
}
}  // namespace

template <class T>
CgMultigridSolver<T>::CgMultigridSolver(const PoissonContext& context)
    : m_context(context),
      m_multigrid(context),
      m_cg(context.decomposition, m_multigrid.hierarchy().plan(0).ghost, context.space,
           coefficients_of<T>(context.decomposition.grid()), context.transport, context.stream,
           m_multigrid.hierarchy().nccl()) {}

template <class T>
SolveReport CgMultigridSolver<T>::solve(mesh::Field<T, 3>& u_in, const mesh::Field<T, 3>& f_in, double b_norm,
                                        const std::function<void(const ResidualRecord&)>& progress) {
  const auto& c = m_context;
  const double t0 = MPI_Wtime();
  const auto& owned = c.decomposition.owned();
  const auto updated = owned.intersect(c.decomposition.grid().interior());
  auto u = m_multigrid.make_field("cg_solution");
  auto f = m_multigrid.make_field("cg_rhs");
  mg::copy(u_in, *u, owned, c.stream);
  mg::copy(f_in, *f, updated, c.stream);

  SolveReport report;
  const typename ConjugateGradient<T>::Options options{c.config.tolerance, c.config.max_iterations, b_norm};
  const auto result = m_cg.solve(
      *u, *f, options, [&](const mesh::Field<T, 3>& r, mesh::Field<T, 3>& z) { m_multigrid.precondition(r, z); },
      [&](std::int64_t iteration, double relative) {
        const ResidualRecord entry{iteration, relative, MPI_Wtime() - t0};
        report.history.push_back(entry);
        if (progress) progress(entry);
      });
  mg::copy(*u, u_in, updated, c.stream);
  if (c.space == mesh::MemorySpace::device) mesh::synchronize(c.stream);
  report.converged = result.converged;
  report.iterations = result.iterations;
  report.relative_residual = result.relative_residual;
  report.seconds = MPI_Wtime() - t0;
  return report;
}

template class CgMultigridSolver<float>;
template class CgMultigridSolver<double>;

}  // namespace gridflow::solver
