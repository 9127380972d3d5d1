#include "solver/spectral_solver.hpp"

#include <mpi.h>

#include "kernels/stencil/dirichlet_lift.hpp"
#include "kernels/stencil/jacobi.hpp"
#include "mesh/check.hpp"
#include "solver/poisson_problem.hpp"

namespace gridflow::solver {

template <class T>
SpectralSolver<T>::SpectralSolver(const PoissonContext& context)
    : m_context(context),
      m_transform(context.decomposition, context.space, context.stream, context.transport),
      m_eigenvalues(context.decomposition.grid(), context.space, context.stream) {
  const auto& grid = context.decomposition.grid();
  m_k = kernels::stencil::poisson_coefficients<T>(grid.spacing(0), grid.spacing(1), grid.spacing(2));
  if (!m_transform.owned_interior().empty())
    m_rhs = std::make_unique<mesh::Field<T, 3>>(m_transform.owned_interior(), 0, context.space, "spectral_rhs");
}

template <class T>
SolveReport SpectralSolver<T>::solve(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, double b_norm,
                                     const std::function<void(const ResidualRecord&)>& progress) {
  const auto& c = m_context;
  const auto& d = c.decomposition;
  const auto& grid = d.grid();
  GRIDFLOW_REQUIRE(u.owned() == d.owned() && u.space() == c.space, "spectral solve: u is not this rank's field in " +
                                                                        mesh::to_string(c.space) + " memory");
  const double t0 = MPI_Wtime();
  const auto& interior = m_transform.owned_interior();

  if (m_rhs) kernels::stencil::dirichlet_lift(u, f, interior, grid.n, m_k, *m_rhs, c.stream);
  m_transform.forward(m_rhs.get());
  if (auto* coefficients = m_transform.coefficients()) {
    const double scale = 8.0 / (static_cast<double>(grid.n[0]) * static_cast<double>(grid.n[1]) * static_cast<double>(grid.n[2]));
    kernels::fft::divide_by_eigenvalues(*coefficients, m_transform.coefficient_box(), m_eigenvalues.tables(),
                                        static_cast<T>(scale), c.stream);
  }
  m_transform.inverse(u);

  // The residual needs the neighbours' new interior values in u's ghosts.
  if (d.size() > 1) {
    if (!m_halo || m_halo_ghost != u.ghost_width()) {
      m_halo = std::make_unique<halo::HaloExchange<T, 3>>(d, u, 1, c.transport, c.stream, m_transform.nccl_comm());
      m_halo_ghost = u.ghost_width();
    }
    m_halo->exchange(u);
  }
  SolveReport report;
  report.relative_residual =
      global_norm(kernels::stencil::residual_norm_squared(u, f, interior, m_k, c.stream), d.comm()) / b_norm;
  report.iterations = 1;
  report.converged = report.relative_residual <= c.config.tolerance;
  report.seconds = MPI_Wtime() - t0;
  const ResidualRecord record{1, report.relative_residual, report.seconds};
  report.history.push_back(record);
  if (progress) progress(record);
  return report;
}

template class SpectralSolver<float>;
template class SpectralSolver<double>;

}  // namespace gridflow::solver
