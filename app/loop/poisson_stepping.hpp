#pragma once
// PoissonStepping<T>: a Poisson solve as the RunLoop steps it: sweeps, cycles or CG iterations,
// until the solver's own rule ends it (the tolerance at a residual check, max_iterations). Its
// field is the iterate while it steps and the solution in u once it concludes.
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "app/loop/steppable.hpp"
#include "solver/poisson_solver.hpp"

namespace gridflow::app {

template <class T>
class PoissonStepping final : public Steppable<T, 3> {
 public:
  /// `solve`: started on `u` (PoissonSolver::start); null when there is nothing to solve (||b|| =
  /// 0: u = 0 is the solution), which finishes at step 0, converged. `u` must outlive this.
  PoissonStepping(std::unique_ptr<solver::PoissonSolve<T>> solve, mesh::Field<T, 3>& u, StreamHandle stream,
                  std::int64_t max_iterations)
      : m_solve(std::move(solve)), m_u(u), m_stream(stream), m_max_iterations(max_iterations) {}

  std::int64_t step() const override;
  std::int64_t last_step() const override { return m_max_iterations; }
  double time() const override { return 0; }
  double dt() const override { return 0; }
  bool finished() const override { return !m_solve || m_solve->finished(); }
  void advance_to(std::int64_t target) override { m_solve->advance(target - m_solve->step()); }
  /// The solve's finish(): the solution in u, the report.
  void conclude() override;
  std::vector<NamedField<T, 3>> fields() const override;
  StreamHandle stream() const override { return m_stream; }

  /// The solve in progress (null when there is nothing to solve), for a checkpoint of its state.
  solver::PoissonSolve<T>* solve() const { return m_solve.get(); }
  /// Steps between the solver's residual checks.
  std::int64_t check_every() const { return m_solve ? m_solve->check_every() : 1; }
  /// The residual checks so far.
  const std::vector<solver::ResidualRecord>& history() const;
  /// Once concluded.
  const solver::SolveReport& report() const;
  /// The deep-halo solver's ghost width after its tuning (PoissonSolve::ghost_width_use).
  std::optional<solver::GhostWidthUse> ghost_width_use() const { return m_solve ? m_solve->ghost_width_use() : std::nullopt; }

 private:
  std::unique_ptr<solver::PoissonSolve<T>> m_solve;
  mesh::Field<T, 3>& m_u;
  StreamHandle m_stream;
  std::int64_t m_max_iterations;
  std::optional<solver::SolveReport> m_report;
};

extern template class PoissonStepping<float>;
extern template class PoissonStepping<double>;

}  // namespace gridflow::app
