// The tuner around the strategies: measurement policy, skipped candidates, the winner re-check
// and the report.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "autotune/coordinate_descent.hpp"
#include "autotune/exhaustive.hpp"
#include "autotune/objective.hpp"
#include "autotune/tuner.hpp"
#include "autotune_synthetic.hpp"
#include "mesh/check.hpp"

namespace {

using namespace gridflow::autotune;
using namespace gridflow::autotune::testing;

const Configuration bowl_optimum{{"bx", 256}, {"by", 2}, {"cz", 8}, {"smem", 0}};

TEST(AutotuneTuner, SkipsCandidatesThatCannotRunOrFailTheirCheck) {
  const SearchSpace space = jacobi_like_space();
  for (const bool exhaustive : {true, false}) {
    SyntheticKernel kernel(space, bowl);
    kernel.throwing = {bowl_optimum};
    // The two runners-up (cost 1.03): cz one step either side of the optimum.
    kernel.wrong = {{{"bx", 256}, {"by", 2}, {"cz", 4}, {"smem", 0}}, {{"bx", 256}, {"by", 2}, {"cz", 16}, {"smem", 0}}};
    Exhaustive all;
    CoordinateDescent local;
    Strategy& strategy = exhaustive ? static_cast<Strategy&>(all) : local;
    const TuningReport report = tune("synthetic", space, kernel, kernel, strategy);

    EXPECT_DOUBLE_EQ(kernel.true_cost(report.chosen), 1.04) << strategy.name() << ": " << report.chosen.to_string();
    // The local search need not try both runners-up, but it passes through the optimum.
    if (exhaustive) {
      EXPECT_EQ(report.rejected.size(), 3u);
    }
    EXPECT_TRUE(std::any_of(report.rejected.begin(), report.rejected.end(),
                            [](const Rejection& r) { return r.config == bowl_optimum; }))
        << strategy.name();
    for (const auto& r : report.rejected) {
      EXPECT_NE(r.config, report.chosen);
      EXPECT_EQ(kernel.runs[r.config], 0) << "a rejected candidate was timed: " << r.config.to_string();
      const bool threw = kernel.throwing.count(r.config) != 0;
      EXPECT_EQ(r.reason.rfind(threw ? "cannot run: too many resources" : "check failed: max |u - oracle|", 0), 0u)
          << r.reason;
    }
    EXPECT_NE(report.to_text().find("skipped " + bowl_optimum.to_string() + ": cannot run"), std::string::npos)
        << report.to_text();
  }
}

TEST(AutotuneTuner, ReportsTheGainOverTheDefaultAndWhatTuningCost) {
  const SearchSpace space = jacobi_like_space();
  SyntheticKernel kernel(space, bowl);
  CoordinateDescent strategy;
  MeasurementPolicy policy;
  policy.warmup_runs = 2;
  policy.repeats = 3;
  policy.recheck_rounds = 2;
  const TuningReport report = tune("stencil::jacobi::cuda", space, kernel, kernel, strategy, policy);

  EXPECT_EQ(report.kernel, "stencil::jacobi::cuda");
  EXPECT_EQ(report.strategy, "coordinate-descent");
  EXPECT_EQ(report.chosen, bowl_optimum);
  EXPECT_EQ(report.default_config.to_string(), "bx=64,by=4,cz=4,smem=0");
  ASSERT_TRUE(report.default_median_s);
  EXPECT_DOUBLE_EQ(*report.default_median_s, 1.27);
  EXPECT_DOUBLE_EQ(*report.speedup(), 1.27);
  EXPECT_EQ(report.evaluations, 30u);
  EXPECT_TRUE(report.rejected.empty());
  // Every candidate: one check, 2 warm-ups, 3 timed runs; the two finalists 2 x 3 more.
  EXPECT_EQ(report.timed_runs, 30u * 3 + 2 * 2 * 3);
  EXPECT_EQ(kernel.runs[report.default_config], 2 + 3);
  EXPECT_EQ(kernel.runs[bowl_optimum], 2 + 3 + 2 * 3);
  EXPECT_GE(report.wall_s, 0.0);

  const std::string text = report.to_text();
  EXPECT_NE(text.find("autotune stencil::jacobi::cuda: bx=256,by=2,cz=8,smem=0 at 1000 ms, 1.27x the default "
                      "bx=64,by=4,cz=4,smem=0 (1270 ms)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("coordinate-descent: 30 configurations tried (0 skipped), 102 timed runs"), std::string::npos)
      << text;

  const nlohmann::json j = report.to_json();
  EXPECT_EQ(j.at("chosen").get<Configuration>(), bowl_optimum);
  EXPECT_DOUBLE_EQ(j.at("speedup").get<double>(), 1.27);
  EXPECT_EQ(j.at("evaluations").get<int>(), 30);

  const ReportAttributes attributes = report.to_attributes();
  const auto find = [&](const std::string& name) -> const ReportValue& {
    for (const auto& [key, value] : attributes)
      if (key == name) return value;
    throw std::out_of_range("no attribute " + name);
  };
  EXPECT_EQ(std::get<std::string>(find("autotune.chosen")), "bx=256,by=2,cz=8,smem=0");
  EXPECT_EQ(std::get<std::int64_t>(find("autotune.chosen.bx")), 256);
  EXPECT_DOUBLE_EQ(std::get<double>(find("autotune.median_s")), 1.0);
  EXPECT_DOUBLE_EQ(std::get<double>(find("autotune.speedup")), 1.27);
  EXPECT_EQ(std::get<bool>(find("autotune.from_cache")), false);
  EXPECT_EQ(std::get<std::int64_t>(find("autotune.skipped")), 0);
}

TEST(AutotuneTuner, RejectedDefaultLeavesNoGainButStillTunes) {
  const SearchSpace space = jacobi_like_space();
  SyntheticKernel kernel(space, bowl);
  kernel.throwing = {space.default_configuration()};
  CoordinateDescent strategy;
  const TuningReport report = tune("synthetic", space, kernel, kernel, strategy);
  EXPECT_FALSE(report.default_median_s);
  EXPECT_FALSE(report.speedup());
  EXPECT_LE(kernel.true_cost(report.chosen), 1.05);
  EXPECT_NE(report.to_text().find("the default bx=64,by=4,cz=4,smem=0 was rejected"), std::string::npos);
  EXPECT_TRUE(report.to_json().at("speedup").is_null());
}

TEST(AutotuneTuner, NoPassingCandidateIsAnError) {
  SearchSpace space;
  space.add(Parameter::integers("bx", {32, 64}, 32));
  SyntheticKernel kernel(space, [](const Configuration&) { return 1.0; });
  kernel.wrong = {{{"bx", 32}}, {{"bx", 64}}};
  Exhaustive strategy;
  try {
    tune("synthetic", space, kernel, kernel, strategy);
    FAIL() << "tune chose a configuration that failed its check";
  } catch (const gridflow::Error& e) {
    EXPECT_NE(std::string(e.what()).find("no configuration passed its check"), std::string::npos) << e.what();
  }
}

/// Seconds from a fixed list, one per timed run: the median must shrug off an outlier.
class ScriptedTimer final : public Timer {
 public:
  explicit ScriptedTimer(std::vector<double> seconds) : m_seconds(std::move(seconds)) {}
  void start() override {}
  double stop() override { return m_seconds.at(m_next++); }

 private:
  std::vector<double> m_seconds;
  std::size_t m_next = 0;
};

TEST(AutotuneObjective, MedianIgnoresAnOutlierAndWarmUpsAreNotTimed) {
  SearchSpace space;
  space.add(Parameter::integers("bx", {32, 64}, 32));
  SyntheticKernel kernel(space, [](const Configuration&) { return 1.0; });
  ScriptedTimer timer({2.0, 2.1, 40.0, 1.9, 2.0});
  MeasurementPolicy policy;
  policy.warmup_runs = 3;
  policy.repeats = 5;
  Objective f(space, kernel, timer, policy);
  const Configuration c{{"bx", 32}};
  EXPECT_DOUBLE_EQ(*f.cost(c), 2.0);
  EXPECT_EQ(kernel.runs[c], 3 + 5);
  EXPECT_EQ(f.timed_runs(), 5u);
  EXPECT_DOUBLE_EQ(*f.cost(c), 2.0);  // remembered, not timed again
  EXPECT_EQ(kernel.runs[c], 3 + 5);
}

TEST(AutotuneObjective, ABrokenTimerIsABugNotASkip) {
  SearchSpace space;
  space.add(Parameter::integers("bx", {32, 64}, 32));
  SyntheticKernel kernel(space, [](const Configuration&) { return 1.0; });
  ScriptedTimer timer({1.0, -1.0, 1.0, 1.0, 1.0});
  Objective f(space, kernel, timer, MeasurementPolicy{});
  EXPECT_THROW(f.cost({{"bx", 32}}), gridflow::Error);
  EXPECT_TRUE(f.rejections().empty());
}

// Two candidates 2% apart under 3% noise per run: the search's single median of 5 runs picks the
// wrong one often; re-timing both alternately for 3 more rounds must pick the faster one far
// more often. Seeded, so the counts are exact and the thresholds have margin.
TEST(AutotuneTuner, RecheckPicksTheTrulyFasterOfTwoNearEqualCandidates) {
  SearchSpace space;
  space.add(Parameter::integers("variant", {0, 1}, 0));
  const Configuration faster{{"variant", 1}};
  const Landscape cost = [&](const Configuration& c) { return c == faster ? 1.00 : 1.02; };
  const auto correct_picks = [&](int recheck_rounds) {
    int correct = 0;
    for (std::uint64_t seed = 1; seed <= 400; ++seed) {
      SyntheticKernel kernel(space, cost, 0.03, seed);
      Exhaustive strategy;
      MeasurementPolicy policy;
      policy.recheck_rounds = recheck_rounds;
      correct += tune("synthetic", space, kernel, kernel, strategy, policy).chosen == faster;
    }
    return correct;
  };
  const int without = correct_picks(0), with = correct_picks(3);
  std::printf("faster one chosen in %d of 400 without the re-check, %d with it\n", without, with);
  EXPECT_GE(with, 360) << "of 400 with the re-check (" << without << " without)";
  EXPECT_GE(with - without, 30) << "the re-check must pay for itself: " << with << " vs " << without;
}

TEST(AutotuneTuner, RecheckAlternatesTheTwoFinalists) {
  SearchSpace space;
  space.add(Parameter::integers("variant", {0, 1, 2}, 0));
  SyntheticKernel kernel(space, [](const Configuration& c) { return 1.0 + 0.1 * c.at("variant"); });
  Exhaustive strategy;
  MeasurementPolicy policy;
  policy.warmup_runs = 0;
  policy.repeats = 2;
  policy.recheck_rounds = 3;
  tune("synthetic", space, kernel, kernel, strategy, policy);
  std::string tail;
  for (std::size_t i = kernel.run_log.size() - 12; i < kernel.run_log.size(); ++i)
    tail += std::to_string(kernel.run_log[i].at("variant"));
  EXPECT_EQ(tail, "001100110011");
  const Configuration slowest{{"variant", 2}};
  EXPECT_EQ(kernel.runs[slowest], 2);
}

TEST(AutotuneTuner, InvalidPolicyIsRefused) {
  const SearchSpace space = jacobi_like_space();
  SyntheticKernel kernel(space, bowl);
  Exhaustive strategy;
  MeasurementPolicy policy;
  policy.repeats = 0;
  EXPECT_THROW(tune("synthetic", space, kernel, kernel, strategy, policy), gridflow::Error);
  EXPECT_TRUE(kernel.checks.empty());
}

}  // namespace
