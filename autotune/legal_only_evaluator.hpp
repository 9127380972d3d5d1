#pragma once
// LegalOnlyEvaluator: a guard between the tuner and a kernel. It forwards to the kernel's
// evaluator only configurations its search space allows, and throws std::logic_error (not
// gridflow::Error, which the tuner would take for a launch failure and skip) for any other: an
// illegal launch shape reaching a kernel is a bug in a strategy or a space, never a candidate.
#include <cstddef>

#include "autotune/evaluator.hpp"
#include "autotune/search_space.hpp"

namespace gridflow::autotune {

class LegalOnlyEvaluator final : public Evaluator {
 public:
  /// Keeps references: `space` and `inner` must outlive it.
  LegalOnlyEvaluator(const SearchSpace& space, Evaluator& inner) : m_space(space), m_inner(inner) {}
  CheckResult check(const Configuration& c) override;
  void run(const Configuration& c) override;
  double work(const Configuration& c) const override { return m_inner.work(c); }
  /// Calls forwarded to the inner evaluator, checks and runs together.
  std::size_t forwarded() const { return m_forwarded; }

 private:
  void require_legal(const Configuration& c, const char* call) const;

  const SearchSpace& m_space;
  Evaluator& m_inner;
  std::size_t m_forwarded = 0;
};

}  // namespace gridflow::autotune
