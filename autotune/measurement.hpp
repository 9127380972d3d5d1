#pragma once
// How a candidate is timed, and what its timing came to.
#include <string>
#include <vector>

#include "autotune/configuration.hpp"

namespace gridflow::autotune {

/// Untimed warm-up runs settle clocks and caches; the median of the timed repeats ignores the odd
/// slow run (a preempted host thread, a clock change) that a mean would absorb.
struct MeasurementPolicy {
  int warmup_runs = 1;     ///< untimed runs after the check, before the first timed one
  int repeats = 5;         ///< timed runs per measurement; the median is the candidate's cost
  int recheck_rounds = 3;  ///< final rounds re-timing the winner and the runner-up alternately

  /// Throws gridflow::Error unless warmup_runs >= 0, repeats >= 1 and recheck_rounds >= 0.
  void validate() const;
};

/// The timed runs of one configuration that passed its check.
struct Measurement {
  Configuration config;
  std::vector<double> samples_s;  ///< seconds per run (per unit of Evaluator::work), in the order taken
  double median_s() const;
};

/// A configuration that was tried and will never be used.
struct Rejection {
  Configuration config;
  std::string reason;  ///< "check failed: ..." or "cannot run: ..."
};

/// Median of `values` (mean of the middle two for an even count); throws gridflow::Error when empty.
double median(std::vector<double> values);

}  // namespace gridflow::autotune
