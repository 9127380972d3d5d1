#include "autotune/collective_tuning.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <utility>

#include "autotune/agreement.hpp"
#include "autotune/coordinate_descent.hpp"
#include "autotune/exhaustive.hpp"
#include "autotune/legal_only_evaluator.hpp"
#include "autotune/slowest_rank_timer.hpp"
#include "autotune/tuner.hpp"
#include "autotune/tuning_cache.hpp"
#include "mesh/check.hpp"
#include "mesh/rank0_error.hpp"
#include "autotune/tuning_plan.hpp"

namespace gridflow::autotune {

namespace {

int rank_of(MPI_Comm comm) {
  int rank = 0;
  GRIDFLOW_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  return rank;
}

std::string broadcast_text(std::string text, MPI_Comm comm) {
  long long length = static_cast<long long>(text.size());
  GRIDFLOW_MPI_CHECK(MPI_Bcast(&length, 1, MPI_LONG_LONG, 0, comm));
  text.resize(static_cast<std::size_t>(length));
  GRIDFLOW_MPI_CHECK(MPI_Bcast(text.data(), static_cast<int>(length), MPI_CHAR, 0, comm));
  return text;
}

autotune::TuningCache open_cache(const TuningOptions& options) {
  return autotune::TuningCache(options.cache.empty() ? autotune::default_cache_path() : std::filesystem::path(options.cache));
}

/// Rank 0's cache entry for `key` as JSON text on every rank; "" when there is none.
std::string shared_cache_entry(const TuningOptions& options, const autotune::CacheKey& key, MPI_Comm comm) {
  std::string text;
  if (rank_of(comm) == 0) {
    try {
      if (const auto hit = open_cache(options).lookup(key)) {
        nlohmann::json j = {{"config", hit->config},          {"median_s", hit->median_s},
                            {"strategy", hit->strategy},      {"evaluations", hit->evaluations},
                            {"default_median_s", nullptr}};
        if (hit->default_median_s) j["default_median_s"] = *hit->default_median_s;
        text = j.dump();
      }
    } catch (const Error& e) {
      std::fprintf(stderr, "gridflow: warning: tuning cache not read: %s\n", e.what());
    }
  }
  return broadcast_text(std::move(text), comm);
}

std::optional<autotune::TuningReport> report_from_cache(const std::string& entry, const autotune::CacheKey& key,
                                                        const autotune::SearchSpace& space) {
  if (entry.empty()) return std::nullopt;
  const auto j = nlohmann::json::parse(entry);
  autotune::TuningReport r;
  r.kernel = key.kernel;
  r.from_cache = true;
  r.chosen = j.at("config").get<autotune::Configuration>();
  if (!space.legal(r.chosen)) return std::nullopt;  // measured for another space: measure again
  r.chosen_median_s = j.at("median_s").get<double>();
  r.strategy = j.at("strategy").get<std::string>();
  r.evaluations = j.at("evaluations").get<std::size_t>();
  r.default_config = space.default_configuration();
  if (!j.at("default_median_s").is_null()) r.default_median_s = j.at("default_median_s").get<double>();
  return r;
}

void store(const TuningRequest& request, const autotune::TuningReport& r, MPI_Comm comm) {
  std::string failure;
  if (rank_of(comm) == 0) {
    try {
      open_cache(request.options).store(request.key, {r.chosen, r.chosen_median_s, r.default_median_s, r.strategy,
                                                      r.evaluations, {}});
    } catch (const Error& e) {
      failure = std::string("key 'tuning.cache': the tuning cache cannot be written: ") + e.what();
      if (!request.must_store) std::fprintf(stderr, "gridflow: warning: %s\n", failure.c_str());
    }
  }
  if (request.must_store) share_rank0_input_error(failure, comm);
}

}  // namespace

std::string TuningOutcome::text(const std::string& kernel) const {
  if (report) return report->to_text();
  const std::string choice = chosen.size() == 0 ? "" : chosen.to_string() + " ";
  return "autotune " + kernel + ": " + choice + "(" + note + ")\n";
}

autotune::ReportAttributes TuningOutcome::attributes(const std::string& kernel) const {
  if (report) return report->to_attributes();
  return {{"autotune.kernel", kernel}, {"autotune.chosen", chosen.to_string()}, {"autotune.note", note}};
}

TuningOutcome choose_collectively(const TuningRequest& request, const autotune::SearchSpace& space,
                                  autotune::Evaluator& evaluator, std::unique_ptr<autotune::Timer> local_timer,
                                  MPI_Comm comm) {
  TuningOutcome outcome;
  outcome.chosen = space.default_configuration();
  const TuningOptions& options = request.options;
  if (options.mode == TuningMode::off && !request.remeasure) {
    outcome.note = "tuning.mode = off: the defaults";
    return outcome;
  }
  if (!request.remeasure) {
    if (auto cached = report_from_cache(shared_cache_entry(options, request.key, comm), request.key, space)) {
      outcome.chosen = cached->chosen;
      outcome.report = std::move(cached);
      return outcome;
    }
    if (options.mode == TuningMode::cached) {
      outcome.note = "tuning.mode = cached and no cache entry for " + request.key.id() + ": the defaults";
      return outcome;
    }
  }

  const auto plan = plan_tuning(options, space.enumerate().size(), request.affordable_runs());
  if (plan.search == TuningPlan::Search::none) {
    outcome.note = plan.why_none + ": the defaults";
    return outcome;
  }
  std::unique_ptr<autotune::Strategy> strategy;
  if (plan.search == TuningPlan::Search::exhaustive) strategy = std::make_unique<autotune::Exhaustive>();
  else strategy = std::make_unique<autotune::CoordinateDescent>(autotune::CoordinateDescentOptions{plan.configurations});
  autotune::LegalOnlyEvaluator guarded(space, evaluator);
  autotune::SlowestRankTimer timer(std::move(local_timer), comm);
  auto report = autotune::tune(request.key.kernel, space, guarded, timer, *strategy, plan.policy);
  // Every rank saw the slowest rank's times, so every rank chose alike; this proves it, and
  // throws on every rank rather than letting ranks run different configurations.
  autotune::agree_on_candidate(comm, {report.chosen}, {report.chosen_median_s});
  store(request, report, comm);
  outcome.chosen = report.chosen;
  outcome.report = std::move(report);
  return outcome;
}

}  // namespace gridflow::autotune
