#pragma once
// SolveOutcomeLine<T>: the observer that prints, on rank 0 at the end of a Poisson run, how the
// solve ended ("converged: multigrid after 11 iteration(s), relative residual ..., 0.123 s"),
// with the error against poisson.exact when it was measured. It comes before the output is
// written, so the line is there even when writing fails.
#include <optional>
#include <string>
#include <utility>

#include "app/loop/exact_error.hpp"
#include "app/loop/observer.hpp"
#include "app/loop/poisson_stepping.hpp"

namespace gridflow::app {

template <class T>
class SolveOutcomeLine final : public Observer<T, 3> {
 public:
  /// `stepping` and `error` (may be null: no exact solution) must outlive this and `error` act
  /// before it. `prints`: rank 0's.
  SolveOutcomeLine(const PoissonStepping<T>& stepping, std::string solver_name, const ExactError<T>* error, bool prints)
      : m_stepping(stepping), m_solver_name(std::move(solver_name)), m_error(error), m_prints(prints) {}

  std::string name() const override { return "solve outcome"; }
  bool acts_at_end() const override { return true; }
  void act(const RunState<T, 3>& state, RunControl& control) override;

 private:
  const PoissonStepping<T>& m_stepping;
  std::string m_solver_name;
  const ExactError<T>* m_error;
  bool m_prints;
};

extern template class SolveOutcomeLine<float>;
extern template class SolveOutcomeLine<double>;

}  // namespace gridflow::app
