// On-line tuning's runs (autotune/online_tuning.hpp) on a stepped computation whose steps take a
// known time per candidate: each candidate's runs are whole multiples of its own multiple and no
// longer than that needs, and its cost is its time per step, so a deep candidate whose runs are
// longer but whose steps are faster wins.
#include <gtest/gtest.h>
#include <mpi.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "autotune/online_tuning.hpp"
#include "kernels/core/precision.hpp"
#include "mesh/box.hpp"

namespace {

using gridflow::autotune::Configuration;

/// Steps that busy-wait `step_seconds` of the configuration applied last (the first: fused_steps 1).
/// The runs before the first apply are the probe's: the tuning times them before any candidate.
class TimedSteps final : public gridflow::autotune::SteppedRun {
 public:
  explicit TimedSteps(std::map<int, double> step_seconds) : m_step_seconds(std::move(step_seconds)) {}

  std::int64_t step() const override { return m_step; }
  void apply(const Configuration& c) override {
    m_fused = c.at("fused_steps");
    m_applied = true;
  }
  std::int64_t advance(std::int64_t count) override {
    runs.push_back({m_fused, count, !m_applied});
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(m_step_seconds.at(m_fused) * count);
    while (std::chrono::steady_clock::now() < until) {
    }
    m_step += count;
    return count;
  }

  struct Run {
    int fused;
    std::int64_t steps;
    bool probe;
  };
  std::vector<Run> runs;  ///< every advance, probes included, in order

 private:
  std::map<int, double> m_step_seconds;
  std::int64_t m_step = 0;
  int m_fused = 1;
  bool m_applied = false;
};

TEST(OnlineTuning, EachCandidateRunsWholeLaunchesOfItsOwnDepthAndIsJudgedPerStep) {
  // 1 ms runs: about 10 steps of fused_steps 1 (100 us a step), which runs of the deepest
  // candidate's 16 would stretch; fused_steps 16 is slower per run (16 x 80 us) but faster per step.
  TimedSteps steps({{1, 100e-6}, {4, 90e-6}, {16, 80e-6}});
  gridflow::autotune::SearchSpace space;
  space.add(gridflow::autotune::Parameter::integers("fused_steps", {1, 4, 16}, 1));
  gridflow::autotune::TuningOptions options;
  options.cache = (std::filesystem::temp_directory_path() / ("gridflow_online_tuning_" + std::to_string(::getpid()) + ".json")).string();
  gridflow::autotune::OnlineTuning setup;
  setup.request = gridflow::autotune::tuning_request(options, gridflow::kernels::core::Precision::float32, "test:fused", gridflow::mesh::MemorySpace::host,
                                                     gridflow::mesh::Box<2>{{0, 0}, {9, 9}}, /*remeasure=*/true);
  setup.comm = MPI_COMM_SELF;
  setup.run_multiple = 16;
  setup.candidate_multiple = [](const Configuration& c) -> std::int64_t { return c.at("fused_steps"); };

  const auto result = gridflow::autotune::tune_online(steps, space, setup);
  std::filesystem::remove(options.cache);

  EXPECT_EQ(result.outcome.chosen.at("fused_steps"), 16) << result.text();
  ASSERT_TRUE(result.outcome.report.has_value());
  EXPECT_EQ(result.outcome.report->per, "step");
  // The probe runs come first, with the starting configuration; then the candidates' runs.
  // (Told apart by when they ran, not by their lengths: under load the runs of fused_steps 1
  // may be as short as a probe's.)
  std::map<int, std::int64_t> longest;
  std::int64_t total = 0;
  for (const auto& run : steps.runs) {
    total += run.steps;
    if (run.probe) continue;
    EXPECT_EQ(run.steps % run.fused, 0) << "a run of fused_steps " << run.fused << " took " << run.steps << " steps";
    longest[run.fused] = std::max(longest[run.fused], run.steps);
  }
  EXPECT_EQ(total, result.steps_taken);
  ASSERT_EQ(longest.size(), 3u);
  EXPECT_LT(longest[1], 16) << "fused_steps 1 ran the deepest candidate's whole launches";
  EXPECT_EQ(longest[16], 16);
}

}  // namespace
