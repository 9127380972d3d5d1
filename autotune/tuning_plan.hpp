#pragma once
// How much tuning fits: on-line, every evaluator run is real steps of the run, so the search is
// sized to the runs the run can spare. First the re-check of the winner goes, then configurations;
// with fewer than two configurations affordable there is nothing to compare and no tuning.
#include <cstddef>
#include <optional>
#include <string>

#include "autotune/measurement.hpp"
#include "autotune/tuning_options.hpp"

namespace gridflow::autotune {

struct TuningPlan {
  enum class Search { none, exhaustive, local };
  Search search = Search::none;
  std::size_t configurations = 0;  ///< tried at most, the default included (the local search's budget)
  autotune::MeasurementPolicy policy;
  std::string why_none;  ///< when search is none: why, for the report

  /// Evaluator runs the plan takes at most: warm-ups, timed runs and the re-check.
  std::size_t runs() const;
};

/// Evaluator runs that `configurations` take under `policy` at most.
std::size_t runs_needed(std::size_t configurations, const autotune::MeasurementPolicy& policy);

/// The search for a space of `legal` configurations under `options`, within `max_runs`
/// evaluator runs (nullopt: no limit, as off-line).
TuningPlan plan_tuning(const TuningOptions& options, std::size_t legal, std::optional<std::size_t> max_runs);

}  // namespace gridflow::autotune
