// The device of a small heat run chosen on-line between the GPU and the CPU (Kokkos host): the
// bound on the difference from an untuned run on either device is 0, because both kernels share
// heat_point and neither contracts to FMA. A device-tuned run must equal an untuned GPU run and an
// untuned CPU run bitwise, whichever device it chose; a cached choice must too.
#include <gtest/gtest.h>
#include <mpi.h>

#include <string>

#include "gpu_test_support.hpp"
#include "halo/gpu_binding.hpp"
#include "heat_handover_test_support.hpp"
#include "heat_test_support.hpp"
#include "jacobi_tuning_test_support.hpp"  // ScratchCache
#include "solver/heat_run_tuning.hpp"

namespace {

using gridflow::mesh::MemorySpace;
using gridflow::testing::differing_points;
using gridflow::testing::untuned_heat_run;

// 256 x 192 points: well inside the size whose device is tuned.
const std::string deck = gridflow::testing::moving_boundary_deck(255, 191, 4000);

template <class T>
class HeatDeviceTuningGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    GRIDFLOW_REQUIRE_GPU();
    GRIDFLOW_ONE_RANK_CASE();
    gridflow::halo::bind_gpu_by_local_rank(MPI_COMM_WORLD, /*allow_sharing=*/true);
  }
  static gridflow::solver::HeatConfig config(std::vector<std::string> overrides) {
    overrides.push_back(std::string("precision=") + (sizeof(T) == 4 ? "float" : "double"));
    return gridflow::testing::heat_config(deck, overrides);
  }
};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(HeatDeviceTuningGpu, Precisions);

}  // namespace

TYPED_TEST(HeatDeviceTuningGpu, ARunHandedBetweenGpuAndCpuContinuesBitwise) {
  using T = TypeParam;
  const auto config = TestFixture::config({"heat.steps=300"});
  const gridflow::mesh::Decomposition<2> decomposition(config.grid, MPI_COMM_SELF, {0, 0}, 1);
  gridflow::mesh::Stream stream;
  const auto cpu_run = untuned_heat_run<T>(config, decomposition, MemorySpace::host);
  gridflow::solver::HeatSolver<T> gpu(config, decomposition, MemorySpace::device, stream.get(), gridflow::halo::Transport::mpi);
  gridflow::solver::HeatSolver<T> cpu(config, decomposition, MemorySpace::host, nullptr, gridflow::halo::Transport::mpi);
  gpu.advance(101);
  cpu.continue_from(gpu);
  cpu.advance(99);
  gpu.continue_from(cpu);
  gpu.advance(100);
  EXPECT_EQ(gpu.step(), 300);
  EXPECT_EQ(differing_points(gpu.solution(), cpu_run->solution(), MPI_COMM_SELF), 0);
}

TYPED_TEST(HeatDeviceTuningGpu, ADeviceTunedRunEqualsUntunedGpuAndCpuRunsBitwise) {
  using T = TypeParam;
  const gridflow::testing::ScratchCache cache("heat_device_tuning_gpu", MPI_COMM_SELF);
  const auto online = TestFixture::config({"tuning.repeats=1", cache.key()});
  const gridflow::mesh::Decomposition<2> decomposition(online.grid, MPI_COMM_SELF, {0, 0}, 1);
  gridflow::mesh::Stream stream;
  const auto cpu_run = untuned_heat_run<T>(online, decomposition, MemorySpace::host);
  const auto gpu_run = untuned_heat_run<T>(online, decomposition, MemorySpace::device, stream.get());
  ASSERT_EQ(differing_points(cpu_run->solution(), gpu_run->solution(), MPI_COMM_SELF), 0);

  gridflow::autotune::Configuration measured;
  for (const auto& config : {online, TestFixture::config({"tuning.mode=cached", cache.key()})}) {
    const bool cached = config.run.tuning.mode == gridflow::autotune::TuningMode::cached;
    SCOPED_TRACE(cached ? "cached" : "online");
    auto started = std::make_unique<gridflow::solver::HeatSolver<T>>(
        config, decomposition, MemorySpace::device, stream.get(), gridflow::halo::Transport::mpi);
    auto tuned = gridflow::solver::tune_heat_run(std::move(started), config, decomposition, {}, config.steps);
    ASSERT_TRUE(tuned.device) << "a grid of 256 x 192 points on device = \"auto\" has its device tuned";
    const auto& choice = tuned.device->choice;
    ASSERT_TRUE(choice.outcome.report) << choice.text();
    const int gpu = choice.outcome.chosen.at("gpu");
    EXPECT_TRUE(gpu == 0 || gpu == 1);
    EXPECT_EQ(tuned.solver->space(), gpu ? MemorySpace::device : MemorySpace::host) << tuned.text();
    EXPECT_EQ(choice.outcome.report->from_cache, cached);
    if (cached) {
      EXPECT_EQ(choice.outcome.chosen, measured);
      EXPECT_EQ(choice.steps_taken, 0);
    } else {
      EXPECT_EQ(choice.outcome.report->evaluations, 2u) << choice.text();
      EXPECT_GT(choice.steps_taken, 0);
      measured = choice.outcome.chosen;
    }
    EXPECT_LE(tuned.steps_taken(), config.steps);
    tuned.solver->advance(config.steps - tuned.solver->step());
    EXPECT_EQ(differing_points(tuned.solver->solution(), gpu_run->solution(), MPI_COMM_SELF), 0) << tuned.text();
    EXPECT_EQ(differing_points(tuned.solver->solution(), cpu_run->solution(), MPI_COMM_SELF), 0) << tuned.text();
  }
}

TYPED_TEST(HeatDeviceTuningGpu, AnExplicitGpuIsNeverSwitched) {
  using T = TypeParam;
  const gridflow::testing::ScratchCache cache("heat_device_explicit_gpu", MPI_COMM_SELF);
  const auto config = TestFixture::config({"device=gpu", "tuning.repeats=1", cache.key()});
  const gridflow::mesh::Decomposition<2> decomposition(config.grid, MPI_COMM_SELF, {0, 0}, 1);
  gridflow::mesh::Stream stream;
  auto started = std::make_unique<gridflow::solver::HeatSolver<T>>(config, decomposition, MemorySpace::device,
                                                                    stream.get(), gridflow::halo::Transport::mpi);
  const auto tuned = gridflow::solver::tune_heat_run(std::move(started), config, decomposition, {}, config.steps);
  EXPECT_FALSE(tuned.device);
  EXPECT_EQ(tuned.solver->space(), MemorySpace::device);
}
