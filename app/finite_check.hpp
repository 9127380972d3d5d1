#pragma once
// FiniteCheck<T, Dim>: the observer that ends a run with an Error when a field stops being
// finite (NaN or infinite) on any rank. It reads the fields' range over all ranks, which a
// progress line at the same step reads too (FieldAccess computes it once), so it costs a
// reduction only at its own steps: every `every` steps, and the last step when the loop took
// steps (a run whose steps were all taken before the loop is not checked).
#include <cstdint>
#include <string>
#include <utility>

#include "app/observer.hpp"
#include "solver/phase_timer.hpp"

namespace gridflow::app {

template <class T, int Dim>
class FiniteCheck final : public Observer<T, Dim> {
 public:
  /// `hint` ends the message: what a non-finite field points at in this run.
  FiniteCheck(std::int64_t every, std::string hint) : m_every(every), m_hint(std::move(hint)) {}

  std::string name() const override { return "finite check"; }
  std::int64_t next_step(const RunState<T, Dim>& state) const override { return next_multiple(state.step, m_every); }
  bool acts_at_end() const override { return true; }
  /// Collective; throws the same Error on every rank.
  void act(const RunState<T, Dim>& state, RunControl& control) override;

  /// Seconds spent, its share of the range reductions included.
  double seconds() { return m_timer.seconds(); }

 private:
  std::int64_t m_every;
  std::string m_hint;
  solver::PhaseTimer m_timer{mesh::MemorySpace::host, nullptr};
};

extern template class FiniteCheck<float, 2>;
extern template class FiniteCheck<double, 2>;
extern template class FiniteCheck<float, 3>;
extern template class FiniteCheck<double, 3>;

}  // namespace gridflow::app
