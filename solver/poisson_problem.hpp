#pragma once
// PoissonProblem<T>: the fields of a Poisson run on this rank: u with the Dirichlet values on the
// boundary points (ghosts included) and zero elsewhere, f at every point the rank sees (owned and
// ghosts), and ||b||.
#include <memory>

#include "kernels/stencil/poisson_point.hpp"
#include "mesh/decomposition.hpp"
#include "mesh/field.hpp"
#include "solver/poisson3d_config.hpp"

namespace gridflow::solver {

template <class T>
class PoissonProblem {
 public:
  /// Collective (||b|| is a global norm). The fields get `ghost_layers` ghost layers: halo.width,
  /// or for a Jacobi solve that tunes its ghost width, the widest candidate
  /// (plan_jacobi_ghost_width(...).capacity()).
  PoissonProblem(const PoissonConfig& config, const mesh::Decomposition<3>& decomposition, mesh::MemorySpace space,
                 StreamHandle stream, int ghost_layers);

  mesh::Field<T, 3>& u() { return *m_u; }
  const mesh::Field<T, 3>& f() const { return *m_f; }
  /// ||b||_2: the residual norm of the zero interior guess (boundary values moved to the rhs).
  double b_norm() const { return m_b_norm; }
  kernels::stencil::PoissonCoefficients<T> coefficients() const { return m_k; }
  /// The owned points the solvers update (the grid's interior part of this rank's box).
  mesh::Box<3> updated_points() const;

 private:
  const mesh::Decomposition<3>& m_decomposition;
  kernels::stencil::PoissonCoefficients<T> m_k;
  std::unique_ptr<mesh::Field<T, 3>> m_u, m_f;
  double m_b_norm = 0;
};

extern template class PoissonProblem<float>;
extern template class PoissonProblem<double>;

/// Global 2-norm from this rank's sum of squares.
double global_norm(double local_sum_of_squares, MPI_Comm comm);

}  // namespace gridflow::solver
