// The device choice of the heat solver, held on host fields: a run handed from one solver to
// another continues bitwise, and choosing between two solvers during the run's first steps (two
// host solvers standing in for the GPU's and the CPU's) leaves the result bitwise the untuned one.
// tests/gpu/heat_device_tuning_gpu_test.cpp makes the same choice between the GPU and the CPU.
#include <gtest/gtest.h>
#include <mpi.h>

#include <string>

#include "heat_handover_test_support.hpp"
#include "heat_test_support.hpp"
#include "jacobi_tuning_test_support.hpp"  // ScratchCache
#include "mesh/check.hpp"
#include "solver/device_tuning.hpp"
#include "mpi_test_support.hpp"

namespace {

using gridflow::mesh::MemorySpace;
using gridflow::solver::HeatSolver;
using gridflow::testing::differing_points;
using gridflow::testing::heat_config;

const std::string deck = gridflow::testing::moving_boundary_deck(200, 150, 2000);

gridflow::mesh::Decomposition<2> decompose(const gridflow::solver::HeatConfig& config) {
  return {config.grid, MPI_COMM_WORLD, {config.run.decomposition[0], config.run.decomposition[1]}, config.run.halo_width};
}

}  // namespace

TEST(HeatHandOver, ARunHandedBackAndForthContinuesBitwise) {
  // Two steps per exchange and hand-overs in the middle of a cycle's worth of steps.
  const auto config = heat_config(deck, {"heat.steps=57", "halo.width=2"});
  const auto decomposition = decompose(config);
  const auto reference = gridflow::testing::untuned_heat_run<double>(config, decomposition, MemorySpace::host);

  HeatSolver<double> a(config, decomposition, MemorySpace::host, nullptr, gridflow::halo::Transport::mpi);
  HeatSolver<double> b(config, decomposition, MemorySpace::host, nullptr, gridflow::halo::Transport::mpi);
  a.advance(21);
  b.continue_from(a);
  EXPECT_EQ(b.step(), 21);
  b.advance(17);
  a.continue_from(b);
  EXPECT_EQ(a.step(), 38);
  a.advance(19);
  EXPECT_EQ(a.step(), 57);
  EXPECT_EQ(differing_points(a.solution(), reference->solution(), MPI_COMM_WORLD), 0);
}

TEST(HeatHandOver, ASolverOfAnotherGhostCapacityIsRefused) {
  const auto config = heat_config(deck);
  const auto decomposition = decompose(config);
  HeatSolver<double> one(config, decomposition, MemorySpace::host, nullptr, gridflow::halo::Transport::mpi, {}, 1);
  HeatSolver<double> two(config, decomposition, MemorySpace::host, nullptr, gridflow::halo::Transport::mpi, {}, 2);
  EXPECT_THROW(two.continue_from(one), gridflow::Error);
}

TEST(HeatDeviceTuning, TheLargestRankDecidesOnEveryRank) {
  // Split along y only: every rank owns all 4001 points of a row and at least 100 rows.
  const auto large = heat_config(deck, {"grid.n=[4000, 600]", "decomposition=[1, 0]"});
  EXPECT_FALSE(gridflow::solver::device_is_tuned(large.run, MemorySpace::device, decompose(large), false));
  const auto small = heat_config(deck);
  EXPECT_TRUE(gridflow::solver::device_is_tuned(small.run, MemorySpace::device, decompose(small), false));
  const int size = gridflow::testing::world_size();
  const auto label = gridflow::solver::device_kernel_label(decompose(small));
  if (size == 1) EXPECT_EQ(label, "heat2d:device");
  else EXPECT_EQ(label.rfind("heat2d:device/", 0), 0u) << label;
}

TEST(HeatDeviceTuning, ChoosingBetweenTwoSolversLeavesTheSolutionBitwiseUnchangedAndIsCached) {
  const gridflow::testing::ScratchCache cache("heat_device_tuning", MPI_COMM_WORLD);
  const auto config = heat_config(deck, {"tuning.repeats=1", cache.key()});
  const auto decomposition = decompose(config);
  const auto reference = gridflow::testing::untuned_heat_run<double>(config, decomposition, MemorySpace::host);
  gridflow::autotune::Configuration measured_choice;
  for (const auto& run_config : {config, heat_config(deck, {"tuning.mode=cached", cache.key()})}) {
    const bool cached = run_config.run.tuning.mode == gridflow::autotune::TuningMode::cached;
    SCOPED_TRACE(cached ? "cached" : "online");
    HeatSolver<double> gpu(run_config, decomposition, MemorySpace::host, nullptr, gridflow::halo::Transport::mpi);
    HeatSolver<double> cpu(run_config, decomposition, MemorySpace::host, nullptr, gridflow::halo::Transport::mpi);
    const auto tuned = gridflow::solver::tune_heat_device(gpu, cpu, run_config, decomposition, config.steps);
    ASSERT_TRUE(tuned.choice.outcome.report) << tuned.choice.text();
    const auto& report = *tuned.choice.outcome.report;
    EXPECT_EQ(tuned.cpu_chosen, report.chosen.at("gpu") == 0);
    HeatSolver<double>& chosen = tuned.cpu_chosen ? cpu : gpu;
    EXPECT_EQ(chosen.step(), tuned.choice.steps_taken);
    EXPECT_EQ(report.from_cache, cached);
    if (!cached) {
      EXPECT_EQ(report.evaluations, 2u) << report.to_text();
      EXPECT_GT(tuned.choice.steps_taken, 0);
      EXPECT_LE(tuned.choice.steps_taken, config.steps);
      EXPECT_GT(cpu.step(), 0) << "the second solver took steps of the run";
      measured_choice = report.chosen;
    } else {
      EXPECT_EQ(report.chosen, measured_choice);
      EXPECT_EQ(tuned.choice.steps_taken, 0);
    }
    chosen.advance(config.steps - chosen.step());
    EXPECT_EQ(differing_points(chosen.solution(), reference->solution(), MPI_COMM_WORLD), 0);
    const auto attributes = tuned.attributes();
    ASSERT_FALSE(attributes.empty());
    EXPECT_EQ(attributes.front().first, "autotune.device.kernel");
  }
}

TEST(HeatDeviceTuning, ARunTooShortKeepsTheGpuAndTakesNoExtraStep) {
  const gridflow::testing::ScratchCache cache("heat_device_short", MPI_COMM_WORLD);
  const auto config = heat_config(deck, {"heat.steps=3", cache.key()});
  const auto decomposition = decompose(config);
  HeatSolver<double> gpu(config, decomposition, MemorySpace::host, nullptr, gridflow::halo::Transport::mpi);
  HeatSolver<double> cpu(config, decomposition, MemorySpace::host, nullptr, gridflow::halo::Transport::mpi);
  const auto tuned = gridflow::solver::tune_heat_device(gpu, cpu, config, decomposition, config.steps);
  EXPECT_FALSE(tuned.choice.outcome.report);
  EXPECT_FALSE(tuned.choice.outcome.note.empty());
  EXPECT_FALSE(tuned.cpu_chosen);
  EXPECT_LE(gpu.step(), 3);
  EXPECT_EQ(cpu.step(), 0);
}
