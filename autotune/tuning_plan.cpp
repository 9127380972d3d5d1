#include "autotune/tuning_plan.hpp"

#include <algorithm>

namespace gridflow::autotune {

std::size_t runs_needed(std::size_t configurations, const autotune::MeasurementPolicy& policy) {
  const auto per_configuration = static_cast<std::size_t>(policy.warmup_runs + policy.repeats);
  const auto recheck = configurations >= 2 ? 2 * static_cast<std::size_t>(policy.recheck_rounds * policy.repeats) : 0;
  return configurations * per_configuration + recheck;
}

std::size_t TuningPlan::runs() const { return search == Search::none ? 0 : runs_needed(configurations, policy); }

TuningPlan plan_tuning(const TuningOptions& options, std::size_t legal, std::optional<std::size_t> max_runs) {
  TuningPlan plan;
  plan.policy = options.policy();
  if (legal < 2) {
    plan.why_none = "nothing to tune (" + std::to_string(legal) + " configuration)";
    return plan;
  }
  std::size_t wanted = legal;
  if (options.strategy == TuningStrategy::local ||
      (options.strategy == TuningStrategy::automatic && legal > options.budget))
    wanted = std::min(options.budget, legal);

  if (max_runs && runs_needed(wanted, plan.policy) > *max_runs) {
    plan.policy.recheck_rounds = 0;
    const auto per_configuration = static_cast<std::size_t>(plan.policy.warmup_runs + plan.policy.repeats);
    wanted = std::min(wanted, *max_runs / per_configuration);
    if (wanted < 2) {
      plan.why_none = "the run is too short to tune: " + std::to_string(*max_runs) + " runs to spare, " +
                      std::to_string(2 * per_configuration) + " needed for two configurations";
      return plan;
    }
  }
  plan.configurations = wanted;
  plan.search = wanted == legal && options.strategy != TuningStrategy::local ? TuningPlan::Search::exhaustive
                                                                             : TuningPlan::Search::local;
  return plan;
}

}  // namespace gridflow::autotune
