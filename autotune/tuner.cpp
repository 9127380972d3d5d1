#include "autotune/tuner.hpp"

#include <algorithm>
#include <chrono>

#include "autotune/objective.hpp"
#include "mesh/check.hpp"

namespace gridflow::autotune {

namespace {

/// The measured configurations, fastest first (ties keep the order tried).
std::vector<const Measurement*> ranked(const Objective& f) {
  std::vector<const Measurement*> order;
  for (const auto& m : f.measurements()) order.push_back(&m);
  std::stable_sort(order.begin(), order.end(),
                   [](const Measurement* a, const Measurement* b) { return a->median_s() < b->median_s(); });
  return order;
}

std::string no_candidate_message(const std::string& kernel, const Objective& f) {
  std::string text = "autotune " + kernel + ": no configuration passed its check (" +
                     std::to_string(f.rejections().size()) + " tried)";
  for (const auto& r : f.rejections()) text += "; " + r.config.to_string() + ": " + r.reason;
  return text;
}

}  // namespace

TuningReport tune(const std::string& kernel, const SearchSpace& space, Evaluator& evaluator, Timer& timer,
                  Strategy& strategy, const MeasurementPolicy& policy) {
  const auto started = std::chrono::steady_clock::now();
  const Configuration default_config = space.default_configuration();
  Objective f(space, evaluator, timer, policy);
  f.cost(default_config);
  strategy.search(f);

  auto order = ranked(f);
  if (order.empty()) throw Error(no_candidate_message(kernel, f));
  // The search compared single medians: a runner-up within the noise may be the faster one.
  // Alternating the two exposes both to the same drift (clocks, temperature, neighbours).
  if (order.size() >= 2 && policy.recheck_rounds > 0) {
    const Configuration winner = order[0]->config, runner_up = order[1]->config;
    for (int round = 0; round < policy.recheck_rounds; ++round) {
      f.remeasure(winner);
      f.remeasure(runner_up);
    }
    order = ranked(f);
  }

  TuningReport report;
  report.kernel = kernel;
  report.strategy = strategy.name();
  report.chosen = order[0]->config;
  report.chosen_median_s = order[0]->median_s();
  report.default_config = default_config;
  if (const Measurement* d = f.measurement(default_config)) report.default_median_s = d->median_s();
  report.evaluations = f.tried_count();
  report.timed_runs = f.timed_runs();
  report.rejected = f.rejections();
  report.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return report;
}

TuningReport find_or_tune(TuningCache& cache, const CacheKey& key, const SearchSpace& space, Evaluator& evaluator,
                          Timer& timer, Strategy& strategy, const MeasurementPolicy& policy) {
  const auto started = std::chrono::steady_clock::now();
  if (const auto hit = cache.lookup(key); hit && space.legal(hit->config)) {
    bool passed = false;
    try {
      passed = evaluator.check(hit->config).passed;
    } catch (const Error&) {
      passed = false;
    }
    if (passed) {
      TuningReport report;
      report.kernel = key.kernel;
      report.strategy = hit->strategy;
      report.from_cache = true;
      report.chosen = hit->config;
      report.chosen_median_s = hit->median_s;
      report.default_config = space.default_configuration();
      report.default_median_s = hit->default_median_s;
      report.evaluations = hit->evaluations;
      report.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      return report;
    }
  }
  TuningReport report = tune(key.kernel, space, evaluator, timer, strategy, policy);
  cache.store(key, {report.chosen, report.chosen_median_s, report.default_median_s, report.strategy,
                    report.evaluations, {}});
  return report;
}

}  // namespace gridflow::autotune
