// Sizing the search to the runs a run can spare: never more runs than affordable.
#include <gtest/gtest.h>

#include "autotune/tuning_plan.hpp"

using gridflow::autotune::plan_tuning;
using gridflow::autotune::runs_needed;
using gridflow::autotune::TuningOptions;
using gridflow::autotune::TuningPlan;
using gridflow::autotune::TuningStrategy;

TEST(TuningPlan, UnlimitedRunsFollowTheStrategyOption) {
  TuningOptions o;  // auto, budget 30
  EXPECT_EQ(plan_tuning(o, 20, std::nullopt).search, TuningPlan::Search::exhaustive);
  const auto large = plan_tuning(o, 100, std::nullopt);
  EXPECT_EQ(large.search, TuningPlan::Search::local);
  EXPECT_EQ(large.configurations, 30u);
  o.strategy = TuningStrategy::exhaustive;
  EXPECT_EQ(plan_tuning(o, 100, std::nullopt).configurations, 100u);
  o.strategy = TuningStrategy::local;
  EXPECT_EQ(plan_tuning(o, 20, std::nullopt).search, TuningPlan::Search::local);
}

TEST(TuningPlan, NeverPlansMoreRunsThanAffordable) {
  TuningOptions o;
  for (std::size_t legal : {2u, 4u, 16u, 80u})
    for (std::size_t max_runs = 0; max_runs < 400; ++max_runs) {
      const auto plan = plan_tuning(o, legal, max_runs);
      EXPECT_LE(plan.runs(), max_runs) << legal << " legal, " << max_runs << " runs";
      if (plan.search != TuningPlan::Search::none) {
        EXPECT_GE(plan.configurations, 2u);
      }
    }
}

TEST(TuningPlan, DropsTheRecheckBeforeConfigurationsAndGivesUpBelowTwo) {
  TuningOptions o;  // 1 warm-up + 3 repeats per configuration, 1 re-check round (6 runs)
  EXPECT_EQ(runs_needed(4, o.policy()), 4u * 4u + 6u);
  const auto tight = plan_tuning(o, 4, 16);
  EXPECT_EQ(tight.search, TuningPlan::Search::exhaustive);
  EXPECT_EQ(tight.policy.recheck_rounds, 0);
  const auto fewer = plan_tuning(o, 4, 12);
  EXPECT_EQ(fewer.search, TuningPlan::Search::local);
  EXPECT_EQ(fewer.configurations, 3u);
  EXPECT_EQ(plan_tuning(o, 4, 7).search, TuningPlan::Search::none);
  EXPECT_EQ(plan_tuning(o, 1, std::nullopt).search, TuningPlan::Search::none);
}
