#pragma once
// SolveCheck<T>: the observer that ends a Poisson run whose solve failed with a RunError, the same
// on every rank (the residuals are global reductions). A residual that is no longer finite ends
// the solve at that check (each solver stops there); this observer, added before the output,
// then throws so that no file of a NaN solution is written. A solve that ended without reaching
// the tolerance is reported by failure() after the output (whose /Info says converged = false),
// for the run to throw.
#include <optional>
#include <string>
#include <utility>

#include "app/loop/observer.hpp"
#include "app/loop/poisson_stepping.hpp"
#include "solver/poisson3d_config.hpp"

namespace gridflow::app {

/// The message of a solve that ended above the tolerance (finite residual), with what to try.
std::string not_converged_message(const std::string& solver_name, const std::vector<solver::ResidualRecord>& history,
                                  const solver::PoissonConfig& config);

template <class T>
class SolveCheck final : public Observer<T, 3> {
 public:
  /// `stepping` and `config` must outlive this.
  SolveCheck(const PoissonStepping<T>& stepping, std::string solver_name, const solver::PoissonConfig& config)
      : m_stepping(stepping), m_solver_name(std::move(solver_name)), m_config(config) {}

  std::string name() const override { return "solve check"; }
  bool acts_at_end() const override { return true; }
  /// Throws RunError when the last residual check found a residual that is not finite.
  void act(const RunState<T, 3>& state, RunControl& control) override;

 private:
  const PoissonStepping<T>& m_stepping;
  std::string m_solver_name;
  const solver::PoissonConfig& m_config;
};

extern template class SolveCheck<float>;
extern template class SolveCheck<double>;

}  // namespace gridflow::app
