#include "autotune/objective.hpp"

#include <cmath>

#include "mesh/check.hpp"

namespace gridflow::autotune {

Objective::Objective(const SearchSpace& space, Evaluator& evaluator, Timer& timer, const MeasurementPolicy& policy)
    : m_space(space), m_evaluator(evaluator), m_timer(timer), m_policy(policy) {
  m_policy.validate();
}

std::optional<double> Objective::cost(const Configuration& c) {
  if (const auto it = m_outcomes.find(c); it != m_outcomes.end()) {
    if (it->second < 0) return std::nullopt;
    return m_measurements[static_cast<std::size_t>(it->second)].median_s();
  }
  if (const auto why = m_space.violation(c))
    throw Error("autotune: a strategy proposed the illegal configuration " + c.to_string() + " (" + *why + ")");

  const auto reject = [&](std::string reason) -> std::optional<double> {
    m_outcomes.emplace(c, -1 - static_cast<long>(m_rejections.size()));
    m_rejections.push_back({c, std::move(reason)});
    return std::nullopt;
  };
  Measurement m{c, {}};
  try {
    const CheckResult verdict = m_evaluator.check(c);
    if (!verdict.passed) return reject("check failed: " + verdict.reason);
    for (int i = 0; i < m_policy.warmup_runs; ++i) m_evaluator.run(c);
    time_runs(m);
  } catch (const Error& e) {
    return reject(std::string("cannot run: ") + e.what());
  }
  require_sane_samples(m);
  m_outcomes.emplace(c, static_cast<long>(m_measurements.size()));
  m_measurements.push_back(std::move(m));
  return m_measurements.back().median_s();
}

void Objective::remeasure(const Configuration& c) {
  const auto it = m_outcomes.find(c);
  if (it == m_outcomes.end() || it->second < 0)
    throw Error("autotune: cannot re-measure " + c.to_string() + ", which was never measured");
  Measurement& m = m_measurements[static_cast<std::size_t>(it->second)];
  time_runs(m);
  require_sane_samples(m);
}

const Measurement* Objective::measurement(const Configuration& c) const {
  const auto it = m_outcomes.find(c);
  return (it == m_outcomes.end() || it->second < 0) ? nullptr : &m_measurements[static_cast<std::size_t>(it->second)];
}

void Objective::time_runs(Measurement& m) {
  for (int i = 0; i < m_policy.repeats; ++i) {
    m_timer.start();
    m_evaluator.run(m.config);
    m.samples_s.push_back(m_timer.stop() / m_evaluator.work(m.config));
    ++m_timed_runs;
  }
}

// Outside the launch-failure handling on purpose: a broken timer is a bug, not a reason to skip.
void Objective::require_sane_samples(const Measurement& m) const {
  for (const double seconds : m.samples_s)
    if (!std::isfinite(seconds) || seconds < 0)
      throw Error("autotune: the timer returned " + std::to_string(seconds) + " s for " + m.config.to_string());
}

}  // namespace gridflow::autotune
