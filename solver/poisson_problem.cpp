#include "solver/poisson_problem.hpp"

#include <cmath>
#include <vector>

#include "kernels/stencil/jacobi.hpp"
#include "mesh/check.hpp"
#include "solver/dirichlet_boundary.hpp"
#include "solver/evaluate_on_box.hpp"
#include "solver/evaluate_on_device.hpp"

namespace gridflow::solver {

double global_norm(double local_sum_of_squares, MPI_Comm comm) {
  double total = 0;
  GRIDFLOW_MPI_CHECK(MPI_Allreduce(&local_sum_of_squares, &total, 1, MPI_DOUBLE, MPI_SUM, comm));
  return std::sqrt(total);
}

template <class T>
PoissonProblem<T>::PoissonProblem(const PoissonConfig& config, const mesh::Decomposition<3>& decomposition,
                                  mesh::MemorySpace space, StreamHandle stream, int ghost_layers)
    : m_decomposition(decomposition) {
  const auto& grid = decomposition.grid();
  m_k = kernels::stencil::poisson_coefficients<T>(grid.spacing(0), grid.spacing(1), grid.spacing(2));
  const int g = ghost_layers;
  m_u = std::make_unique<mesh::Field<T, 3>>(decomposition.owned(), g, space, "u");
  m_f = std::make_unique<mesh::Field<T, 3>>(decomposition.owned(), g, space, "f");

  // Ghosts too: deep-halo sweeps recompute the neighbours' edge points and need f there.
  const auto visible = m_f->ghosted().intersect(grid.points());
  const bool on_device = space == mesh::MemorySpace::device && config.run.device_expressions;
  if (zero_everywhere(*config.rhs)) {
    // f was allocated zero, in either memory space
  } else if (on_device && has_device_form(*config.rhs)) {
    evaluate_on_device(*config.rhs, grid, visible, m_f->view(), stream);
  } else {
    mesh::Field<T, 3> f_host(decomposition.owned(), g, mesh::MemorySpace::host, "f_host");
    evaluate_on_box(*config.rhs, grid, visible, [&](const auto& p, double v) { f_host(p[0], p[1], p[2]) = static_cast<T>(v); });
    m_f->copy_from(f_host);
  }

  DirichletBoundary<T, 3> boundary(grid, config.boundary, space, stream);
  boundary.apply(*m_u, m_u->ghosted().intersect(grid.points()), 0.0);
  mesh::synchronize(space, stream);
  // The zero guess's residual needs the neighbours' boundary values in the ghosts: they are set
  // above from the expressions, and the zero interior is zero everywhere already.
  m_b_norm = global_norm(kernels::stencil::residual_norm_squared(*m_u, *m_f, updated_points(), m_k, stream),
                         decomposition.comm());
}

template <class T>
mesh::Box<3> PoissonProblem<T>::updated_points() const {
  return m_decomposition.owned().intersect(m_decomposition.grid().interior());
}

template class PoissonProblem<float>;
template class PoissonProblem<double>;

}  // namespace gridflow::solver
