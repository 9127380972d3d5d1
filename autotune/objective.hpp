#pragma once
// Objective: the cost function strategies minimise. It measures each configuration once
// (checked, warmed up, timed) and remembers the outcome, so no configuration is timed twice
// during a search, and it refuses illegal configurations outright.
#include <cstddef>
#include <optional>
#include <unordered_map>
#include <vector>

#include "autotune/evaluator.hpp"
#include "autotune/measurement.hpp"
#include "autotune/search_space.hpp"
#include "autotune/timer.hpp"

namespace gridflow::autotune {

class Objective {
 public:
  /// Keeps references to the space, the evaluator and the timer: they must outlive the Objective.
  Objective(const SearchSpace& space, Evaluator& evaluator, Timer& timer, const MeasurementPolicy& policy);

  /// Median seconds of `c`, measured on the first call and remembered; nullopt when `c` was
  /// rejected (its check failed, or check/run threw gridflow::Error). Throws gridflow::Error for
  /// an illegal `c`, before the evaluator sees it.
  std::optional<double> cost(const Configuration& c);
  /// True when cost(c) has been called: a further call is free.
  bool tried(const Configuration& c) const { return m_outcomes.count(c) != 0; }
  /// Configurations tried so far, measured and rejected: what a strategy's budget counts.
  std::size_t tried_count() const { return m_outcomes.size(); }

  /// Times a measured `c` for another policy.repeats runs, adding to its samples (the re-check).
  void remeasure(const Configuration& c);

  const SearchSpace& space() const { return m_space; }
  const std::vector<Measurement>& measurements() const { return m_measurements; }  ///< in the order tried
  const std::vector<Rejection>& rejections() const { return m_rejections; }        ///< in the order tried
  /// The measured `c`, or nullptr when it has not been measured.
  const Measurement* measurement(const Configuration& c) const;
  /// Timed runs so far, re-checks included.
  std::size_t timed_runs() const { return m_timed_runs; }

 private:
  void time_runs(Measurement& m);
  void require_sane_samples(const Measurement& m) const;

  const SearchSpace& m_space;
  Evaluator& m_evaluator;
  Timer& m_timer;
  MeasurementPolicy m_policy;
  std::vector<Measurement> m_measurements;
  std::vector<Rejection> m_rejections;
  // Index into m_measurements, or -1 - index into m_rejections.
  std::unordered_map<Configuration, long> m_outcomes;
  std::size_t m_timed_runs = 0;
};

}  // namespace gridflow::autotune
