#pragma once
// JacobiSolver<T>: the reference method. With ghost width g it takes g sweeps per exchange
// (recomputing the overlap), like the heat solver, so results do not depend on the rank count or
// g. The residual norm is fused into the sweep every `check_every` sweeps (the sweep that ends a
// halo cycle, whose input is valid one point beyond the owned box).
#include <memory>

#include "halo/halo_exchange.hpp"
#include "kernels/stencil/jacobi.hpp"
#include "solver/poisson_solver.hpp"

namespace gridflow::solver {

template <class T>
class JacobiSolver : public PoissonSolver<T> {
 public:
  explicit JacobiSolver(const PoissonContext& context, const kernels::stencil::JacobiCudaParams& cuda = {});
  SolveReport solve(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, double b_norm,
                    const std::function<void(const ResidualRecord&)>& progress) override;
  std::string name() const override { return "jacobi"; }

 private:
  PoissonContext m_context;
  kernels::stencil::JacobiCudaParams m_cuda;
};

extern template class JacobiSolver<float>;
extern template class JacobiSolver<double>;

}  // namespace gridflow::solver
