#pragma once
// JacobiSolver<T>: the reference method, as a PoissonSolver. The sweeping is JacobiIteration's;
// with on-line tuning, the first sweeps of each solve measure launch shapes and exchange widths
// (jacobi_tuning.hpp) and the winner takes the rest, with the iterates, residual history and
// iteration count of an untuned solve.
#include <functional>
#include <memory>
#include <optional>

#include "solver/jacobi_iteration.hpp"
#include "solver/jacobi_tuning.hpp"
#include "solver/poisson_solver.hpp"

namespace gridflow::solver {

struct JacobiOnlineTuning {
  GhostWidthPlan ghost_width;  ///< plan_jacobi_ghost_width: the fields need its capacity() ghost layers
  std::function<void(const autotune::OnlineTuningResult&)> on_tuned;  ///< told on every rank when the tuning phase ends
};

template <class T>
class JacobiSolver : public PoissonSolver<T> {
 public:
  /// Each solve starts with `start_tunables` (default: default_jacobi_tunables). Without `tuning`
  /// it keeps them; with it, it tunes during at most its first jacobi_tuning_sweeps() sweeps, or
  /// takes the cache's choice.
  explicit JacobiSolver(const PoissonContext& context, std::optional<JacobiOnlineTuning> tuning = std::nullopt,
                        std::optional<JacobiTunables> start_tunables = std::nullopt);
  /// With on-line tuning, the tuning's sweeps are taken here: the solve returned stands where the
  /// tuning left it.
  std::unique_ptr<PoissonSolve<T>> start(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, double b_norm,
                                         std::function<void(const ResidualRecord&)> progress) override;
  std::string name() const override { return "jacobi"; }
  /// What the last solve started sweeps with after its tuning.
  const JacobiTunables& tunables() const { return m_tunables; }

 private:
  PoissonContext m_context;
  std::optional<JacobiOnlineTuning> m_tuning;
  JacobiTunables m_start;
  JacobiTunables m_tunables;
};

extern template class JacobiSolver<float>;
extern template class JacobiSolver<double>;

}  // namespace gridflow::solver
