// On-line tuning of the heat solver on host fields: on several ranks it tunes the ghost width
// during the run's first steps, and the result is bitwise the untuned run's; a second run in
// cached mode takes the stored width without measuring.
#include <gtest/gtest.h>
#include <mpi.h>

#include <string>

#include "heat_tuning_test_support.hpp"
#include "mpi_test_support.hpp"

namespace {

using gridflow::testing::world_size;
// Big enough that a step costs microseconds, long enough that the tuning fits in its steps.
const std::string deck =
    "[grid]\nn = [200, 150]\nlength = [1.0, 0.8]\n[heat]\na = 0.9\nsteps = 2000\n"
    "initial = 'sin(5*x) * cos(3*y) + x'\n"
    "[heat.boundary]\nleft = 'y * cos(40*t)'\nright = '1 + sin(y + 30*t)'\nbottom = 'x * exp(-t)'\ntop = 'x^2'\n";

std::size_t differing(const std::vector<double>& a, const std::vector<double>& b) {
  std::size_t n = 0;
  for (std::size_t k = 0; k < a.size(); ++k) n += a[k] != b[k];
  return n;
}

}  // namespace

TEST(HeatTuning, OnlineTuningLeavesTheSolutionBitwiseUnchanged) {
  using gridflow::testing::heat_config;
  const gridflow::testing::ScratchCache cache("heat_tuning_online", MPI_COMM_WORLD);
  const std::string cache_key = cache.key();
  const auto untuned =
      gridflow::testing::run_heat_tuned<double>(heat_config(deck, {"tuning.mode=off", cache_key}), MPI_COMM_WORLD);
  EXPECT_FALSE(untuned.tuning.outcome.report);

  const auto tuned = gridflow::testing::run_heat_tuned<double>(
      heat_config(deck, {"tuning.mode=online", "tuning.repeats=1", cache_key}), MPI_COMM_WORLD);
  EXPECT_EQ(differing(tuned.field, untuned.field), 0u);
  EXPECT_LE(tuned.tuning.steps_taken, 2000);
  if (world_size() == 1) {
    EXPECT_FALSE(tuned.tuning.outcome.report) << "one host rank has nothing to tune";
    EXPECT_EQ(tuned.tuning.steps_taken, 0);
  } else {
    ASSERT_TRUE(tuned.tuning.outcome.report) << tuned.tuning.text();
    const auto& report = *tuned.tuning.outcome.report;
    EXPECT_FALSE(report.from_cache);
    EXPECT_GE(report.evaluations, 2u) << report.to_text();
    EXPECT_GT(tuned.tuning.steps_taken, 0);
    EXPECT_TRUE(report.chosen.has("ghost_width"));
  }

  // Cached: the stored width again, nothing measured, the same bits.
  const auto cached = gridflow::testing::run_heat_tuned<double>(heat_config(deck, {"tuning.mode=cached", cache_key}),
                                                                MPI_COMM_WORLD);
  EXPECT_EQ(differing(cached.field, untuned.field), 0u);
  EXPECT_EQ(cached.tuning.steps_taken, 0);
  if (world_size() > 1) {
    ASSERT_TRUE(cached.tuning.outcome.report) << cached.tuning.text();
    EXPECT_TRUE(cached.tuning.outcome.report->from_cache);
    EXPECT_EQ(cached.tuning.outcome.chosen, tuned.tuning.outcome.chosen);
  }

  // An explicit halo.width is the user's choice: not tuned.
  const auto fixed = gridflow::testing::run_heat_tuned<double>(heat_config(deck, {"halo.width=2", cache_key}), MPI_COMM_WORLD);
  EXPECT_FALSE(fixed.tuning.outcome.report);
  EXPECT_EQ(differing(fixed.field, untuned.field), 0u);
}

TEST(HeatTuning, ARunTooShortToTuneTakesTheDefaultsAndNoExtraStep) {
  using gridflow::testing::heat_config;
  const gridflow::testing::ScratchCache cache("heat_tuning_short", MPI_COMM_WORLD);
  const auto short_run =
      gridflow::testing::run_heat_tuned<double>(heat_config(deck, {"heat.steps=3", cache.key()}), MPI_COMM_WORLD);
  EXPECT_LE(short_run.tuning.steps_taken, 3);
  EXPECT_FALSE(short_run.tuning.outcome.report);
  EXPECT_FALSE(short_run.tuning.outcome.note.empty());
}
