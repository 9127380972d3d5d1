#pragma once
// SpectralSolver<T>: the direct solve of the 7-point system on uniform grids by the type-I
// discrete sine transform, which diagonalises the Laplacian with homogeneous Dirichlet faces.
//
//   b = f - A u_bdry                 the boundary values moved to the right-hand side
//   b^ = DST_z DST_y DST_x b         distributed in slabs (DistributedSineTransform)
//   u^ = b^ (2/Nx)(2/Ny)(2/Nz) / (lx_i + ly_j + lz_k)
//   u  = DST_x DST_y DST_z u^        on the interior points; the boundary values stay
//
// It solves the discrete system to rounding in one pass (O(n^3 log n)), whatever the initial
// guess; the residual is then measured like the iterative solvers do, and reported as iteration 1.
#include <memory>

#include "halo/halo_exchange.hpp"
#include "kernels/fft/eigen_divide.hpp"
#include "kernels/stencil/poisson_point.hpp"
#include "solver/poisson_solver.hpp"
#include "transform/distributed_sine_transform.hpp"

namespace gridflow::solver {

template <class T>
class SpectralSolver : public PoissonSolver<T> {
 public:
  /// Not collective: plans the transforms and messages once, for fields of the context's memory space.
  explicit SpectralSolver(const PoissonContext& context);
  /// Not collective; the solve's one step is. The step overwrites u's owned interior points; u's
  /// boundary points (ghosts included) must hold the Dirichlet values, and f the right-hand side
  /// at the owned points.
  std::unique_ptr<PoissonSolve<T>> start(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, double b_norm,
                                         std::function<void(const ResidualRecord&)> progress) override;
  std::string name() const override { return "spectral"; }

 private:
  /// The direct solve and its residual, reported as iteration 1.
  SolveReport solve_directly(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, double b_norm);

  PoissonContext m_context;
  kernels::stencil::PoissonCoefficients<T> m_k;
  transform::DistributedSineTransform<T> m_transform;
  kernels::fft::DirichletEigenvalues<T> m_eigenvalues;
  std::unique_ptr<mesh::Field<T, 3>> m_rhs;  // b on the owned interior points; null when there are none or on one rank
  std::unique_ptr<halo::HaloExchange<T, 3>> m_halo;  // for the residual, made for u's ghost width
  int m_halo_ghost = -1;
};

extern template class SpectralSolver<float>;
extern template class SpectralSolver<double>;

}  // namespace gridflow::solver
