#pragma once
// CgMultigridSolver<T>: conjugate gradients on the interior unknowns, preconditioned by one
// multigrid cycle from a zero guess (MultigridSolver::precondition), until the relative residual
// is under the tolerance, within config.max_iterations iterations. The cycle is not symmetric
// unless multigrid.symmetric_cycle asks for it (with equal pre and post smoothing counts): the
// flexible CG of conjugate_gradient.hpp copes (in as many iterations as the symmetric cycle). With
// multigrid.full_multigrid (the default) the first step is the multigrid solver's full multigrid
// pass added to u, which lands near the discretisation error, and CG starts from there (513^3
// double: 4 steps, the pass and 3 CG iterations, where a CG from a cycle took 6).
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

  /// Collective. A step is a CG iteration, or the full multigrid pass (step 1, taken here). Checks
  /// the residual of the initial guess here (step 0) and after every step (CG's recursive residual;
  /// the final one is recomputed from u by finish()). One solve at a time.
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
