// When the heat solver's device is tuned: only device = "auto" on the GPU, tuning on, a transport
// the CPU can use, and no rank owning more than device_tuning_max_points points.
#include <gtest/gtest.h>

#include <cstdint>

#include "solver/device_tuning.hpp"

namespace {

using gridflow::mesh::MemorySpace;
using gridflow::solver::device_is_tuned;
using gridflow::solver::device_tuning_max_points;
using gridflow::solver::RunOptions;
using gridflow::autotune::TuningMode;

constexpr std::int64_t small = 200 * 150;

}  // namespace

TEST(DeviceTuningRule, AutoOnTheGpuWithTuningOnAndASmallGridIsTuned) {
  const RunOptions run;  // device = "auto", tuning.mode = "online", halo.transport = "auto"
  EXPECT_TRUE(device_is_tuned(run, MemorySpace::device, small, false));
  EXPECT_TRUE(device_is_tuned(run, MemorySpace::device, device_tuning_max_points, false));
  RunOptions mpi = run;
  mpi.halo_transport = gridflow::halo::TransportChoice::mpi;
  EXPECT_TRUE(device_is_tuned(mpi, MemorySpace::device, small, false));
}

TEST(DeviceTuningRule, ARankOwningMoreThanTheLimitKeepsTheGpu) {
  EXPECT_EQ(device_tuning_max_points, 512 * 512);
  EXPECT_FALSE(device_is_tuned(RunOptions{}, MemorySpace::device, device_tuning_max_points + 1, false));
}

TEST(DeviceTuningRule, AnExplicitDeviceOrNoGpuIsNeverSwitched) {
  RunOptions gpu;
  gpu.device = "gpu";
  EXPECT_FALSE(device_is_tuned(gpu, MemorySpace::device, small, false));
  EXPECT_FALSE(device_is_tuned(gpu, MemorySpace::device, small, /*remeasure=*/true));
  RunOptions cpu;
  cpu.device = "cpu";
  EXPECT_FALSE(device_is_tuned(cpu, MemorySpace::host, small, true));
  // "auto" without a GPU on every rank: the run is on the CPU and there is nothing to choose.
  EXPECT_FALSE(device_is_tuned(RunOptions{}, MemorySpace::host, small, true));
}

TEST(DeviceTuningRule, TuningOffKeepsTheGpuUnlessGridflowTuneMeasures) {
  RunOptions off;
  off.tuning.mode = TuningMode::off;
  EXPECT_FALSE(device_is_tuned(off, MemorySpace::device, small, false));
  EXPECT_TRUE(device_is_tuned(off, MemorySpace::device, small, /*remeasure=*/true));
  RunOptions cached;
  cached.tuning.mode = TuningMode::cached;  // looks the choice up, measures nothing
  EXPECT_TRUE(device_is_tuned(cached, MemorySpace::device, small, false));
}

TEST(DeviceTuningRule, NcclTransportKeepsTheGpu) {
  RunOptions nccl;
  nccl.halo_transport = gridflow::halo::TransportChoice::nccl;
  EXPECT_FALSE(device_is_tuned(nccl, MemorySpace::device, small, false));
}

TEST(DeviceTuningRule, TheSpaceIsGpuOrCpuWithTheGpuAsDefault) {
  const auto space = gridflow::solver::device_space();
  ASSERT_EQ(space.parameters().size(), 1u);
  EXPECT_EQ(space.default_configuration(), (gridflow::autotune::Configuration{{"gpu", 1}}));
  EXPECT_EQ(space.enumerate().size(), 2u);
}
