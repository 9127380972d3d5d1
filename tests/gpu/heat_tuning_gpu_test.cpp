// On-line tuning of the CUDA heat kernel's launch shape: the tuned run equals the untuned one
// bitwise (every shape shares heat_point; no FMA contraction), and a cached run reuses the choice.
// On several ranks with a GPU each, switching the halo transport (and width) between steps, as
// the tuner does, changes no bit.
#include <gtest/gtest.h>
#include <mpi.h>

#include <string>

#include "gpu_test_support.hpp"
#include "halo/gpu_binding.hpp"
#include "halo/transport.hpp"
#include "heat_tuning_test_support.hpp"
#include "mesh/decomposition.hpp"
#include "solver/heat_solver.hpp"
#include "solver/heat_tuning.hpp"

namespace {

const std::string deck =
    "[grid]\nn = [1023, 777]\nlength = [1.0, 0.8]\n[heat]\na = 0.9\nsteps = 6000\n"
    "initial = 'sin(5*x) * cos(3*y) + x'\n"
    "[heat.boundary]\nleft = 'y * cos(40*t)'\nright = '1 + sin(y + 30*t)'\nbottom = 'x * exp(-t)'\ntop = 'x^2'\n";

template <class T>
class HeatTuningGpu : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(HeatTuningGpu, Precisions);

}  // namespace

TYPED_TEST(HeatTuningGpu, TunedLaunchShapeLeavesTheSolutionBitwiseUnchangedAndIsCached) {
  GRIDFLOW_REQUIRE_GPU();
  using T = TypeParam;
  using gridflow::testing::heat_config;
  gridflow::halo::bind_gpu_by_local_rank(MPI_COMM_WORLD, /*allow_sharing=*/true);
  const auto device = gridflow::mesh::MemorySpace::device;
  const gridflow::testing::ScratchCache cache("heat_tuning_gpu", MPI_COMM_WORLD);
  const std::string cache_key = cache.key();
  {
    const std::string precision = sizeof(T) == 4 ? "float" : "double";
    const std::string p = "precision=" + precision;
    const auto off = gridflow::testing::run_heat_tuned<T>(heat_config(deck, {p, "tuning.mode=off", cache_key}),
                                                               MPI_COMM_WORLD, device);
    const auto online = gridflow::testing::run_heat_tuned<T>(
        heat_config(deck, {p, "tuning.strategy=local", "tuning.budget=8", "tuning.repeats=1", cache_key}), MPI_COMM_WORLD,
        device);
    ASSERT_TRUE(online.tuning.outcome.report) << online.tuning.text();
    EXPECT_FALSE(online.tuning.outcome.report->from_cache);
    EXPECT_TRUE(online.tuning.outcome.chosen.has("block_x"));
    EXPECT_GT(online.tuning.steps_taken, 0);
    EXPECT_LE(online.tuning.steps_taken, 6000);
    std::size_t differ = 0;
    for (std::size_t k = 0; k < off.field.size(); ++k) differ += off.field[k] != online.field[k];
    EXPECT_EQ(differ, 0u) << precision << ": " << online.tuning.text();

    const auto cached = gridflow::testing::run_heat_tuned<T>(heat_config(deck, {p, "tuning.mode=cached", cache_key}),
                                                                  MPI_COMM_WORLD, device);
    ASSERT_TRUE(cached.tuning.outcome.report) << cached.tuning.text();
    EXPECT_TRUE(cached.tuning.outcome.report->from_cache);
    EXPECT_EQ(cached.tuning.outcome.chosen, online.tuning.outcome.chosen);
    EXPECT_EQ(cached.tuning.steps_taken, 0);
  }}

TYPED_TEST(HeatTuningGpu, SwitchingTheHaloTransportBetweenStepsChangesNoBit) {
  GRIDFLOW_REQUIRE_NCCL_RANKS();
  using T = TypeParam;
  using namespace gridflow;
  const int ranks = gridflow::testing::world_size();
  const auto device = mesh::MemorySpace::device;
  const auto config = gridflow::testing::heat_config(deck, {sizeof(T) == 4 ? "precision=float" : "precision=double", "tuning.mode=off"});
  EXPECT_TRUE(autotune::halo_transport_is_tuned(config.run.halo_transport, device, halo::Transport::nccl, ranks));
  solver::HeatSpaceOptions options;
  options.ghost_width.candidates = {1, 2};
  options.tunes_transport = true;
  options.transport = halo::Transport::nccl;
  EXPECT_TRUE(solver::heat_space(device, options).default_configuration().at("nccl"));
  const mesh::Decomposition<2> d(config.grid, MPI_COMM_WORLD, {0, 0}, 1);
  mesh::Stream stream;
  solver::HeatSolver<T> steady(config, d, device, stream.get(), halo::Transport::mpi, {}, 2);
  solver::HeatSolver<T> switching(config, d, device, stream.get(), halo::Transport::nccl, {}, 2);
  steady.advance(600);
  for (int k = 0; k < 12; ++k) {
    auto t = switching.tunables();
    t.transport = k % 2 ? halo::Transport::mpi : halo::Transport::nccl;
    t.ghost_width = k % 3 == 0 ? 2 : 1;
    switching.set_tunables(t);
    switching.advance(50);
  }
  EXPECT_EQ(gridflow::testing::owned_points_differing(steady, switching, d.owned(), stream.get()), 0u);
  EXPECT_EQ(switching.step(), 600);
}
