#include "autotune/legal_only_evaluator.hpp"

#include <stdexcept>
#include <string>

namespace gridflow::autotune {

void LegalOnlyEvaluator::require_legal(const Configuration& c, const char* call) const {
  if (const auto why = m_space.violation(c))
    throw std::logic_error(std::string("autotune: illegal configuration ") + c.to_string() + " reached " + call + ": " + *why);
}

CheckResult LegalOnlyEvaluator::check(const Configuration& c) {
  require_legal(c, "check");
  ++m_forwarded;
  return m_inner.check(c);
}

void LegalOnlyEvaluator::run(const Configuration& c) {
  require_legal(c, "run");
  ++m_forwarded;
  m_inner.run(c);
}

}  // namespace gridflow::autotune
