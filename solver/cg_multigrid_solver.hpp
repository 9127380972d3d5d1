#pragma once
// CgMultigridSolver<T>: conjugate gradients on the interior unknowns, preconditioned by one
// multigrid cycle from a zero guess (MultigridSolver::precondition), until the relative residual
// is under the tolerance, within config.max_iterations iterations. The cycle is not symmetric
// unless multigrid.symmetric_cycle asks for it (with equal pre and post smoothing counts): the
// flexible CG of conjugate_gradient.hpp copes (in as many iterations as the symmetric cycle). With
// multigrid.full_multigrid (the default) the first preconditioning is the full multigrid pass, so
// the first step lands near the discretisation error (513^3 double: 4 iterations instead of 6).
#include <memory>
#include <string>

#include "solver/conjugate_gradient.hpp"
#include "solver/multigrid_solver.hpp"
#include "solver/poisson_solver.hpp"

namespace gridflow::solver {

template <class T>
class CgMultigridSolver : public PoissonSolver<T> {
 public:
  /// Collective over the context's communicator.
  explicit CgMultigridSolver(const PoissonContext& context);

  /// Collective. A step is a CG iteration. Checks the residual of the initial guess here
  /// (iteration 0) and after every iteration (CG's recursive residual; the final one is
  /// recomputed from u by finish()). One solve at a time.
  std::unique_ptr<PoissonSolve<T>> start(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, double b_norm,
                                         std::function<void(const ResidualRecord&)> progress) override;
  std::string name() const override { return "cg-mg"; }

 private:
  PoissonContext m_context;
  MultigridSolver<T> m_multigrid;
  ConjugateGradient<T> m_cg;
};

extern template class CgMultigridSolver<float>;
extern template class CgMultigridSolver<double>;

}  // namespace gridflow::solver
