#include "solver/jacobi_solver.hpp"

#include <mpi.h>

#include <algorithm>
#include <utility>

#include "solver/poisson_problem.hpp"

namespace gridflow::solver {

template <class T>
JacobiSolver<T>::JacobiSolver(const PoissonContext& context, const kernels::stencil::JacobiCudaParams& cuda)
    : m_context(context), m_cuda(cuda) {}

template <class T>
SolveReport JacobiSolver<T>::solve(mesh::Field<T, 3>& u_in, const mesh::Field<T, 3>& f, double b_norm,
                                   const std::function<void(const ResidualRecord&)>& progress) {
  const auto& c = m_context;
  const auto& d = c.decomposition;
  const auto& grid = d.grid();
  const auto k = kernels::stencil::poisson_coefficients<T>(grid.spacing(0), grid.spacing(1), grid.spacing(2));
  const MPI_Comm comm = d.comm();
  const double t0 = MPI_Wtime();
  const std::int64_t width = u_in.ghost_width();
  const auto owned_interior = d.owned().intersect(grid.interior());

  mesh::Field<T, 3> other(u_in.owned(), u_in.ghost_width(), u_in.space(), "u_next");
  other.copy_from(u_in);  // the boundary values, which sweeps never write
  mesh::Field<T, 3>* u = &u_in;
  mesh::Field<T, 3>* v = &other;
  std::unique_ptr<halo::HaloExchange<T, 3>> halo;
  if (d.size() > 1) halo = std::make_unique<halo::HaloExchange<T, 3>>(d, u_in, static_cast<int>(width), c.transport, c.stream);

  SolveReport report;
  const std::int64_t max = c.config.max_iterations, every = c.config.check_every;
  std::int64_t done = 0;
  while (done < max && !report.converged) {
    // A cycle ends on the next check, so the checking sweep is a reach-0 sweep.
    const std::int64_t next_check = (done / every + 1) * every;
    const std::int64_t cycle = std::min({width, max - done, next_check - done});
    if (halo) halo->exchange(*u);
    for (std::int64_t q = 0; q < cycle; ++q) {
      const std::int64_t reach = halo ? cycle - 1 - q : 0;
      const auto update = d.owned().grow(reach).intersect(grid.interior());
      const bool check = done + 1 == next_check || done + 1 == max;
      if (check) {
        // The residual of the sweep's input, u after `done` sweeps.
        const double r = global_norm(kernels::stencil::jacobi_sweep_with_residual(*u, *v, f, update, owned_interior, k, m_cuda, c.stream),
                                     comm) / b_norm;
        const ResidualRecord record{done, r, MPI_Wtime() - t0};
        report.history.push_back(record);
        if (progress) progress(record);
        report.relative_residual = r;
        if (r <= c.config.tolerance) report.converged = true;
      } else {
        kernels::stencil::jacobi_sweep(*u, *v, f, update, k, m_cuda, c.stream);
      }
      std::swap(u, v);
      ++done;
    }
  }
  if (u != &u_in) u_in.copy_from(*u);  // both are on the same device: a device-to-device copy
  // The residual of what is returned, exactly.
  if (halo) halo->exchange(u_in);
  report.relative_residual =
      global_norm(kernels::stencil::residual_norm_squared(u_in, f, owned_interior, k, c.stream), comm) / b_norm;
  report.converged = report.relative_residual <= c.config.tolerance;
  report.iterations = done;
  report.seconds = MPI_Wtime() - t0;
  return report;
}

template class JacobiSolver<float>;
template class JacobiSolver<double>;

}  // namespace gridflow::solver
