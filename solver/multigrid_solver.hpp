#pragma once
// MultigridSolver<T>: geometric multigrid cycles (V or F, config.multigrid) until the relative
// residual is under the tolerance, within config.max_iterations cycles, the first of them a full
// multigrid pass unless config.multigrid.full_multigrid is off; see
// multigrid_hierarchy.hpp for the levels, smoothers and the coarsest solve. Also a
// preconditioner: precondition() applies one cycle to A e = r from e = 0 with zero boundary values.
//
// Mixed precision (T = double and config.multigrid.mixed_precision, the default): the cycles run
// on a float hierarchy as iterative refinement. A step computes r = f - A u in double (its norm,
// the convergence check, folded into the same pass) and stores it in float, takes one cycle (or
// the full multigrid pass) for A e = r from e = 0 in float and adds e to u in double; so u and
// the residual the tolerance is checked on stay double while the cycle moves half the bytes.
// precondition() rounds r to float, cycles, and widens e back (precondition_rounded() leaves both
// conversions to its caller).
#include <memory>
#include <string>

#include "solver/multigrid_hierarchy.hpp"
#include "solver/poisson_solver.hpp"

namespace gridflow::solver {

template <class T>
class MultigridSolver : public PoissonSolver<T> {
 public:
  /// Collective over the context's communicator (builds every level and its decomposition).
  explicit MultigridSolver(const PoissonContext& context);

  /// Collective. A step is a cycle; the residual of the initial guess is checked here (cycle 0)
  /// and after every cycle.
  std::unique_ptr<PoissonSolve<T>> start(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, double b_norm,
                                         std::function<void(const ResidualRecord&)> progress) override;
  std::string name() const override { return "multigrid"; }

  /// e = one cycle for A e = r from e = 0, with zero Dirichlet values: e ~ A^{-1} r. Both fields
  /// have the layout of make_field(); r is read at the owned interior points, e is written
  /// everywhere it is owned. Collective.
  void precondition(const mesh::Field<T, 3>& r, mesh::Field<T, 3>& e);
  /// Mixed precision only: precondition() on float fields of its own, for a caller that rounds r
  /// into rounded_residual() itself and reads e from rounded_correction() (conjugate gradients'
  /// RoundedPreconditioner), so that no pass of its own converts either.
  void precondition_rounded();
  mesh::Field<float, 3>& rounded_residual() { return *m_mixed_r; }
  mesh::Field<float, 3>& rounded_correction() { return *m_mixed_e; }

  /// A zero field of the layout precondition() takes (this rank's owned box, the ghost width the
  /// grid transfers need, the context's memory space).
  std::unique_ptr<mesh::Field<T, 3>> make_field(const std::string& label) const { return m_hierarchy.make_finest_field(label); }
  /// Whether `field` already has make_field()'s layout, so a solve can work on it directly
  /// instead of on a copy (one pass over memory less at the start and at the end of a solve).
  bool has_field_layout(const mesh::Field<T, 3>& field) const {
    return field.space() == m_context.space && field.owned() == m_context.decomposition.owned() &&
           field.ghost_width() == m_hierarchy.plan(0).ghost;
  }

  const MultigridHierarchy<T>& hierarchy() const { return m_hierarchy; }

  /// ||f - A u||_2 over the whole grid's interior (u of make_field()'s layout; exchanges its
  /// ghosts). Mixed precision: also keeps the residual for the next improve(). Collective.
  double residual_norm(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f);
  /// One step for A u = f: a cycle, or the full multigrid pass where `first` and the options ask
  /// for it. Mixed precision: `residual_kept` says that the last residual_norm() was of this u
  /// (else the residual is recomputed). Collective.
  void improve(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, bool first, bool residual_kept);
  /// Whether the cycles run in float on a double problem.
  bool mixed() const { return m_mixed != nullptr; }

 private:
  PoissonContext m_context;
  MultigridHierarchy<T> m_hierarchy;
  mesh::Box<3> m_updated;  // the owned interior points
  // Mixed precision only: the float hierarchy, its finest residual (right-hand side) and correction.
  std::unique_ptr<MultigridHierarchy<float>> m_mixed;
  std::unique_ptr<mesh::Field<float, 3>> m_mixed_r, m_mixed_e;
};

extern template class MultigridSolver<float>;
extern template class MultigridSolver<double>;

}  // namespace gridflow::solver
