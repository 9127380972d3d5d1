#pragma once
// MultigridHierarchy<T>: geometric multigrid cycles for the 7-point Poisson system on a
// distributed vertex-centred grid.
//
// Levels: the finest grid and its coarsenings while multigrid_levels() allows (see
// multigrid_plan.hpp for how they are split over the ranks and when they are gathered onto rank
// 0). Coarse operators are rediscretised (spacing 2h); residuals go down by full weighting and
// corrections come up by trilinear interpolation. Smoothers: red-black Gauss-Seidel (colours by
// global index, so sweeps do not depend on the decomposition), red then black before the coarse
// correction and after it (black then red after it with MultigridOptions::symmetric_cycle, so that
// with equal pre and post counts a cycle is a symmetric operator), or weighted Jacobi.
//
// Coarsest level: where it lives on one rank (one-rank runs, gathered levels) and has at most
// kernels::multigrid::dense_solve_max_points interior points, its dense inverse is applied
// (exact, one launch). Otherwise (a distributed or large coarsest level) conjugate gradients
// (unpreconditioned) until its residual has dropped by coarse_solve_reduction<T>() relative to
// its right-hand side, or its unknown count of iterations, close enough to exact that the cycle
// stays a fixed (linear) operator to rounding.
#include <memory>
#include <string>
#include <vector>

#include "halo/nccl_comm.hpp"
#include "mesh/field.hpp"
#include "solver/conjugate_gradient.hpp"
#include "halo/multigrid_gather.hpp"
#include "solver/multigrid_level.hpp"
#include "solver/multigrid_plan.hpp"
#include "solver/poisson_solver.hpp"

namespace gridflow::solver {

/// The relative residual reduction the coarsest-level solve reaches: 1e-10, or 100 epsilon of T
/// where that is larger (float).
template <class T>
double coarse_solve_reduction();

template <class T>
class MultigridHierarchy {
 public:
  /// Collective over the context's communicator.
  explicit MultigridHierarchy(const PoissonContext& context);

  /// One cycle (V or F, per config.multigrid.cycle) for A u = f on the finest level: u (the
  /// finest layout, see make_finest_field) is improved in place; its boundary points hold the
  /// Dirichlet values and are not changed; f is read at the owned interior points. Collective.
  void cycle(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f);
  /// u = 0 (all of it: the Dirichlet values of a correction), then cycle(u, f); the first
  /// smoothing sweep starts from the zeros instead of reading them. Collective.
  void cycle_from_zero(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f);

  /// One full multigrid pass for A u = f (same fields as cycle()): the residual of u goes down to
  /// every level, the coarsest solves for its correction, and each finer level starts from the
  /// interpolated coarser correction and improves it by one cycle; the finest level adds its
  /// interpolated correction to u and takes one cycle too. From a zero or rough start it ends
  /// near the discretisation error, where a cycle alone would not. Collective.
  void full_multigrid(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f);
  /// u = 0, then full_multigrid(u, f) where `full`, else cycle_from_zero(u, f): a correction for
  /// the residual f. Collective.
  void correction_from_zero(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, bool full);

  /// ||f - A u||_2 over the whole finest grid's interior. Exchanges u's ghosts. Collective.
  double residual_norm(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f);
  /// The same norm, with r = float(f - A u) written at the owned interior points in one pass (r
  /// of the finest layout in float: the right-hand side of a mixed-precision correction).
  double residual_norm(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, mesh::Field<float, 3>& r);

  /// A zero field of the finest level's layout: this rank's owned box, the ghost width the
  /// transfers need (at least 1), the context's memory space.
  std::unique_ptr<mesh::Field<T, 3>> make_finest_field(const std::string& label) const;

  int levels() const { return static_cast<int>(m_plan.size()); }
  const MultigridLevelPlan& plan(int level) const { return m_plan[level]; }
  /// The NCCL communicator the finest level's exchanges share (null unless the transport is NCCL).
  std::shared_ptr<const halo::NcclComm> nccl() const { return m_nccl; }

 private:
  bool takes_part(int level) const { return m_levels[level] != nullptr; }
  /// from_zero: u is set to 0 first (folded into the first smoothing sweep where one can take it).
  void cycle(int level, bool f_cycle, mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, bool from_zero);
  void smooth(int level, mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, int sweeps, bool black_first, bool from_zero);
  void restrict_residual(int level, mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f);
  void prolong_correction(int level, mesh::Field<T, 3>& u);
  /// Restricts `fine` (level l's layout) into level l+1's right-hand side; exchanges its ghosts.
  void restrict_to_coarser(int level, mesh::Field<T, 3>& fine);

  MultigridOptions m_options;
  StreamHandle m_stream;
  std::vector<MultigridLevelPlan> m_plan;
  std::shared_ptr<const halo::NcclComm> m_nccl;
  std::vector<std::unique_ptr<MultigridLevel<T>>> m_levels;  // null where this rank takes no part
  std::vector<bool> m_fused_restriction;  // per level: its residual restricted by restrict_residual_full_weighting
  std::unique_ptr<halo::MultigridGather<T>> m_gather;              // into the first gathered level, if any
  std::unique_ptr<ConjugateGradient<T>> m_coarse_solver;     // where this rank takes part in a distributed or large coarsest level
  mesh::Buffer m_coarse_inverse;                             // else the coarsest level's dense inverse, in the fields' space
  typename ConjugateGradient<T>::Options m_coarse_options;
};

extern template class MultigridHierarchy<float>;
extern template class MultigridHierarchy<double>;

}  // namespace gridflow::solver
