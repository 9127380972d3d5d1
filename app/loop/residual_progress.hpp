#pragma once
// ResidualProgress<T>: the observer that prints a Poisson solve's residual checks on rank 0, one
// line each ("  multigrid        3  residual 1.234567e-05  0.012 s"), at the steps its solver
// checks and at the end.
#include <cstddef>
#include <cstdint>
#include <string>

#include "app/loop/observer.hpp"
#include "app/loop/poisson_stepping.hpp"

namespace gridflow::app {

template <class T>
class ResidualProgress final : public Observer<T, 3> {
 public:
  /// `stepping` must outlive this. `prints`: rank 0's.
  ResidualProgress(const PoissonStepping<T>& stepping, std::string solver_name, bool prints)
      : m_stepping(stepping), m_solver_name(std::move(solver_name)), m_prints(prints) {}

  /// Counts the checks made so far as printed (a restart's, which the interrupted run printed).
  void skip_checks_so_far() { m_printed = m_stepping.history().size(); }
  /// Prints the checks not printed yet: those made so far. Not collective.
  void print_new_checks();

  std::string name() const override { return "progress"; }
  void on_start(const RunState<T, 3>&) override { print_new_checks(); }
  std::int64_t next_step(const RunState<T, 3>& state) const override {
    return next_multiple(state.step, m_stepping.check_every());
  }
  bool acts_at_end() const override { return true; }
  void act(const RunState<T, 3>&, RunControl&) override { print_new_checks(); }

 private:
  const PoissonStepping<T>& m_stepping;
  std::string m_solver_name;
  bool m_prints;
  std::size_t m_printed = 0;
};

extern template class ResidualProgress<float>;
extern template class ResidualProgress<double>;

}  // namespace gridflow::app
