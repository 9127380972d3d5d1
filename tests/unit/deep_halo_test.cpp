// The deep halo's bookkeeping, host only: what a solver's exchange count says it ran with, the
// ghost layers a plan allocates, the checks heat and Jacobi share, and the report that names the
// ghost width one way for the printed lines, /Info and the summary.
#include <gtest/gtest.h>

#include <string>

#include "app/output/ghost_width_report.hpp"
#include "mesh/check.hpp"
#include "solver/deep_halo.hpp"
#include "solver/ghost_width_plan.hpp"

namespace {

using gridflow::halo::ExchangeTally;
using gridflow::halo::Transport;
using gridflow::mesh::MemorySpace;
using gridflow::solver::GhostWidthPlan;
using gridflow::solver::ghost_width_use;

TEST(GhostWidthUse, RanIsTheWidthOfTheExchangesAfterTheTuningNotTheChoice) {
  // The tuning exchanged at 1, 2 and 4; afterwards only width 4 moves.
  const ExchangeTally after_tuning{{1, 30}, {2, 12}, {4, 5}};
  const auto use = ghost_width_use(4, after_tuning, {{1, 30}, {2, 12}, {4, 105}});
  EXPECT_EQ(use.chosen, 4);
  EXPECT_EQ(use.ran, 4);
  EXPECT_EQ(use.exchanges, 100);
  // Told 4, exchanged at 2: the report says what happened.
  const auto wrong = ghost_width_use(4, after_tuning, {{1, 30}, {2, 62}, {4, 5}});
  EXPECT_EQ(wrong.chosen, 4);
  EXPECT_EQ(wrong.ran, 2);
  EXPECT_EQ(wrong.exchanges, 50);
  // A width first used after the tuning counts from zero.
  EXPECT_EQ(ghost_width_use(8, after_tuning, {{1, 30}, {2, 12}, {4, 5}, {8, 7}}).ran, 8);
}

TEST(GhostWidthUse, NoExchangeMeansTheChosenWidthAndSeveralWidthsAreABug) {
  const auto one_rank = ghost_width_use(2, {}, {});
  EXPECT_EQ(one_rank.ran, 2);
  EXPECT_EQ(one_rank.exchanges, 0);
  EXPECT_THROW(ghost_width_use(2, {{2, 1}}, {{1, 3}, {2, 4}}), gridflow::Error);
}

TEST(GhostWidthPlan, AllocatesTheWidestWidthTheRunMayTake) {
  EXPECT_EQ((GhostWidthPlan{3, {}}).capacity(), 3);
  EXPECT_FALSE((GhostWidthPlan{3, {}}).tuned());
  EXPECT_EQ((GhostWidthPlan{1, {1, 2, 4, 8}}).capacity(), 8);
  EXPECT_TRUE((GhostWidthPlan{1, {1, 2}}).tuned());
}

TEST(DeepHaloCheck, RefusesWhatNoSolverCanStepWith) {
  using gridflow::solver::check_deep_halo;
  EXPECT_NO_THROW(check_deep_halo("s", 4, 4, Transport::mpi, 4, MemorySpace::host, 2));
  EXPECT_THROW(check_deep_halo("s", 0, 1, Transport::mpi, 4, MemorySpace::host, 2), gridflow::Error);
  EXPECT_THROW(check_deep_halo("s", 5, 1, Transport::mpi, 4, MemorySpace::host, 2), gridflow::Error);
  EXPECT_THROW(check_deep_halo("s", 2, 0, Transport::mpi, 4, MemorySpace::host, 2), gridflow::Error);
  EXPECT_THROW(check_deep_halo("s", 2, 4, Transport::mpi, 4, MemorySpace::device, 2), gridflow::Error);
  EXPECT_NO_THROW(check_deep_halo("s", 2, 4, Transport::mpi, 4, MemorySpace::device, 1)) << "one rank: no ghosts to outrun";
  EXPECT_THROW(check_deep_halo("s", 1, 1, Transport::nccl, 4, MemorySpace::host, 2), gridflow::Error);
  try {
    check_deep_halo("heat solver", 9, 1, Transport::mpi, 8, MemorySpace::host, 2);
    ADD_FAILURE() << "width 9 on 8 ghost layers was accepted";
  } catch (const gridflow::Error& e) {
    EXPECT_NE(std::string(e.what()).find("heat solver: ghost width 9 is outside 1..8"), std::string::npos) << e.what();
  }
}

TEST(GhostWidthReport, NamesEachValueOneWayInEveryReport) {
  gridflow::app::GhostWidthReport report{GhostWidthPlan{1, {1, 2, 4, 8}}, std::nullopt};
  // Before the tuning ends: what the plan knows.
  EXPECT_EQ(report.text(), "halo.width.requested = 1, halo.width.allocated = 8");
  EXPECT_EQ(report.setup_text(), "halo.width.requested = 1, halo.width.allocated = 8 (the tuner chooses among 1, 2, 4, 8)");
  report.use = gridflow::solver::GhostWidthUse{4, 2, 17};
  EXPECT_EQ(report.text(),
            "halo.width.requested = 1, halo.width.chosen = 4, halo.width.ran = 2, halo.exchanges = 17, halo.width.allocated = 8");
  const auto attributes = report.attributes();
  const auto entries = report.entries();
  ASSERT_EQ(attributes.size(), entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i) {
    EXPECT_EQ(attributes[i].first, entries[i].first);
    EXPECT_EQ(std::get<std::int64_t>(attributes[i].second), entries[i].second) << entries[i].first;
  }
  EXPECT_EQ((gridflow::app::GhostWidthReport{GhostWidthPlan{3, {}}, std::nullopt}).setup_text(),
            "halo.width.requested = 3, halo.width.allocated = 3");
}

}  // namespace
