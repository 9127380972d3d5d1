#pragma once
// MultigridLevel<T>: one level of a multigrid hierarchy on the ranks that take part in it: its
// decomposition, operator coefficients, work fields and ghost exchanges. Every field of a level
// has the level's layout: owned box decomposition().owned(), ghost width plan().ghost.
#include <memory>
#include <string>

#include "halo/nccl_comm.hpp"
#include "halo/transport.hpp"
#include "kernels/stencil/poisson_point.hpp"
#include "mesh/decomposition.hpp"
#include "mesh/field.hpp"
#include "halo/halo_exchange_set.hpp"
#include "solver/multigrid_plan.hpp"

namespace gridflow::solver {

template <class T>
class MultigridLevel {
 public:
  /// `finest`: the caller passes the solution and right-hand side (no u, f here). `scratch`: the
  /// smoother needs a second copy of u. Allocates only; no communication.
  MultigridLevel(const MultigridLevelPlan& plan, const mesh::Decomposition<3>& decomposition, bool finest, bool scratch,
                 mesh::MemorySpace space, halo::Transport transport, StreamHandle stream,
                 std::shared_ptr<const halo::NcclComm> nccl);
  MultigridLevel(const MultigridLevel&) = delete;
  MultigridLevel& operator=(const MultigridLevel&) = delete;

  const MultigridLevelPlan& plan() const { return m_plan; }
  const mesh::Decomposition<3>& decomposition() const { return m_decomposition; }
  const kernels::stencil::PoissonCoefficients<T>& coefficients() const { return m_k; }
  /// This rank's owned interior points: the unknowns it updates.
  const mesh::Box<3>& updated() const { return m_updated; }

  /// The correction this level solves for (coarse levels only; zero on the boundary points).
  mesh::Field<T, 3>& solution() { return *m_u; }
  /// The restricted residual it solves with (coarse levels only).
  mesh::Field<T, 3>& rhs() { return *m_f; }
  mesh::Field<T, 3>& residual() { return *m_r; }
  /// The smoother's second buffer (only when built with `scratch`).
  mesh::Field<T, 3>& scratch() { return *m_scratch; }

  /// A zero field of this level's layout.
  std::unique_ptr<mesh::Field<T, 3>> make_field(const std::string& label) const;
  /// Fills the ghosts of `field` (this level's layout) to `width`; collective over the level's ranks.
  void exchange(mesh::Field<T, 3>& field, int width) { m_halo.exchange(field, width); }

 private:
  MultigridLevelPlan m_plan;
  mesh::Decomposition<3> m_decomposition;
  kernels::stencil::PoissonCoefficients<T> m_k;
  mesh::Box<3> m_updated;
  mesh::MemorySpace m_space;
  halo::HaloExchangeSet<T, 3> m_halo;
  std::unique_ptr<mesh::Field<T, 3>> m_u, m_f, m_r, m_scratch;
};

extern template class MultigridLevel<float>;
extern template class MultigridLevel<double>;

}  // namespace gridflow::solver
