#pragma once
// JacobiIteration<T>: one Jacobi solve in progress, advanced by whole sweeps. With exchange width
// g it takes up to g sweeps per exchange (recomputing the overlap with the neighbours), like the
// heat solver, so the iterates do not depend on the rank count or g. The residual norm is fused
// into the sweeps numbered check_every, 2 check_every, ... and max_iterations (the sweep that
// ends a halo cycle, whose input is valid one point beyond the owned box).
//
// The checks fall on the same sweeps however the solve is cut into advance() calls and whatever
// the tunables: a cycle always ends at the next check. So a solve that changes its tunables
// between sweeps (on-line tuning) has the iterates, the residual history and the iteration count
// of one that never does; only the residual's summation order may change with the CUDA launch
// shape (see JacobiTunables).
#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "halo/transport.hpp"
#include "kernels/stencil/jacobi.hpp"
#include "halo/halo_exchange_set.hpp"
#include "solver/deep_halo.hpp"
#include "solver/poisson_solver.hpp"

namespace gridflow::solver {

/// What may change between two sweeps without changing the iterates (deep_halo.hpp says why). A
/// launch takes up to fused_steps sweeps (1..8; on several ranks at most ghost_width), in the
/// counts jacobi_fused_sweeps_at_most allows, except the checking sweep, which goes alone with
/// its fused residual; on device fields the launches of several sweeps are the temporal-blocking
/// kernel, on host fields they are single sweeps. The fused residual is summed per CUDA block, so on
/// device fields its last bits follow the launch shape (and the order the blocks finish in); on
/// host fields it does not depend on either.
using JacobiTunables = DeepHaloTunables<kernels::stencil::JacobiCudaParams>;

/// What an untuned solve sweeps with: the default launch shape, halo.width sweeps per exchange,
/// the context's transport.
inline JacobiTunables default_jacobi_tunables(const PoissonContext& context) {
  JacobiTunables t;
  t.ghost_width = context.config.run.halo_width;
  t.transport = context.transport;
  return t;
}

template <class T>
class JacobiIteration final : public PoissonSolve<T> {
 public:
  /// Starts from u (boundary points set, interior the initial guess); f as for PoissonSolver.
  /// Both fields must outlive the iteration and have at least as many ghost layers as any
  /// exchange width used. `progress` (may be empty) hears of every check.
  JacobiIteration(const PoissonContext& context, mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, double b_norm,
                  std::function<void(const ResidualRecord&)> progress, const JacobiTunables& tunables);

  /// Takes `count` sweeps, fewer when the solve ends first (converged at a check, or
  /// max_iterations reached); returns the sweeps taken. Collective. Host fields: blocks. Device
  /// fields: queued on the stream, except that each check waits for its residual.
  std::int64_t advance(std::int64_t count) override;
  /// Also when a residual check found a residual that is not finite (NaN or infinite): no sweep mends it.
  bool finished() const override {
    return m_report.converged || m_done >= m_context.config.max_iterations || !std::isfinite(m_report.relative_residual);
  }
  /// Sweeps taken so far (a step of the solve is a sweep).
  std::int64_t step() const override { return m_done; }
  std::int64_t check_every() const override { return m_context.config.check_every; }
  const std::vector<ResidualRecord>& history() const override { return m_report.history; }
  const mesh::Field<T, 3>& iterate() const override { return *m_u; }
  /// Ghost exchanges made so far, by width (none on one rank).
  const halo::ExchangeTally& exchanges_by_width() const { return m_halos.exchanges_by_width(); }
  /// Records that the on-line tuning (if any) has ended: from here on the sweeps run with its
  /// choice, and ghost_width_use() reports the exchanges made since.
  void mark_tuning_end();
  std::optional<GhostWidthUse> ghost_width_use() const override;

  /// Applies to the sweeps that follow. Throws Error for what check_deep_halo refuses, invalid CUDA
  /// parameters, more than 8 fused sweeps, or (device fields) a launch shape that cannot take one
  /// of the fused counts up to fused_steps (JacobiCudaParams::fits_sweeps). Collective the first time a width and transport are used
  /// together: their exchange is set up then.
  void set_tunables(const JacobiTunables& tunables);
  const JacobiTunables& tunables() const { return m_tunables; }

  std::vector<std::pair<std::string, mesh::Field<T, 3>*>> state_fields() override { return {{"u", m_u}}; }
  void restore(std::int64_t step, std::vector<ResidualRecord> history,
               const std::vector<std::pair<std::string, double>>& scalars) override;
  std::vector<std::pair<std::string, std::int64_t>> tuning_choice() const override;
  void apply_tuning_choice(const std::vector<std::pair<std::string, std::int64_t>>& choice) override;

  /// Leaves the last iterate in u and reports, with the residual of exactly that u (collective).
  /// Call once, after the last advance().
  SolveReport finish() override;

 private:
  PoissonContext m_context;
  mesh::Field<T, 3>& m_u_in;
  const mesh::Field<T, 3>& m_f;
  double m_b_norm;
  std::function<void(const ResidualRecord&)> m_progress;
  JacobiTunables m_tunables;
  kernels::stencil::PoissonCoefficients<T> m_k;
  mesh::Field<T, 3> m_other;  ///< the second iterate buffer; m_u and m_v swap between the two
  mesh::Field<T, 3>* m_u;
  mesh::Field<T, 3>* m_v;
  halo::HaloExchangeSet<T, 3> m_halos;
  double m_start;
  std::int64_t m_done = 0;
  SolveReport m_report;
  std::optional<std::pair<int, halo::ExchangeTally>> m_tuning_end;  ///< chosen width, exchanges then
};

extern template class JacobiIteration<float>;
extern template class JacobiIteration<double>;

}  // namespace gridflow::solver
