// Fused heat steps (temporal blocking) against the host oracle, bitwise: the fused kernels (tile and
// streaming) compute every point with heat_point from the values a chain of single steps uses, and
// neither side contracts to FMA. Every fused configuration of the tuner's space, update boxes that touch the
// grid's boundary and boxes of a rank inside it with deep ghosts; then whole runs of the solver
// on 1 or N ranks (mpirun) with fused steps, and on-line tuning that may choose them.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "gpu_test_support.hpp"
#include "halo/gpu_binding.hpp"
#include "heat_test_support.hpp"
#include "heat_tuning_test_support.hpp"
#include "kernels/stencil/heat.hpp"
#include "mesh/device.hpp"
#include "autotune/kernel_spaces.hpp"

namespace {

using namespace gridflow;

template <class T>
class HeatFusedGpu : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(HeatFusedGpu, Precisions);

// Fixed boundary values: steps can be fused.
const std::string still_deck =
    "[grid]\nn = [301, 173]\nlength = [1.0, 0.6]\n[heat]\na = 0.8\nsteps = 203\n"
    "initial = 'sin(3*x) * cos(2*y) + x*y'\n"
    "[heat.boundary]\nleft = 'y'\nright = 'cos(y)'\nbottom = 'x^2'\ntop = '1 - x'\n";

std::string precision_of(std::size_t bytes) { return bytes == 4 ? "precision=float" : "precision=double"; }

/// Every fused configuration of the space, k = its fused steps (which runs the streaming kernel's
/// instances compiled for exactly k levels) and 3 steps (the instances taking fewer levels than
/// they hold), on a field over `owned` with `ghost` layers and the grid's interior `active`,
/// against the host oracle. The update box: `active` on a one-rank grid (`whole_grid`), else what
/// a rank writes when its ghosts are valid `shrink` steps less deep than the ghost width: the
/// ghosted box shrunk by k + shrink.
template <class T>
void expect_space_matches_oracle(const mesh::Box<2>& owned, int ghost, const mesh::Box<2>& active, bool whole_grid,
                                 int shrink = 0) {
  mesh::Field<T, 2> in(owned, ghost, mesh::MemorySpace::host), before(owned, ghost, mesh::MemorySpace::host);
  const auto g = in.ghosted();
  for (auto j = g.lo[1]; j <= g.hi[1]; ++j)
    for (auto i = g.lo[0]; i <= g.hi[0]; ++i) {
      in(i, j) = static_cast<T>(std::sin(0.37 * i) * std::cos(0.11 * j) + 1e-3 * i);
      before(i, j) = static_cast<T>(-7 - 1e-2 * j);  // what `out` holds where nothing is written
    }
  const kernels::stencil::HeatCoefficients<T> c{T(0.21), T(0.17)};
  mesh::Field<T, 2> d_in(owned, ghost, mesh::MemorySpace::device), d_out(owned, ghost, mesh::MemorySpace::device);
  mesh::Field<T, 2> got(owned, ghost, mesh::MemorySpace::host), expect(owned, ghost, mesh::MemorySpace::host);
  d_in.copy_from(in);
  mesh::Stream stream;  // copy_from waits for every stream, so the results are in before they are read
  int tried = 0;
  for (const auto& config : autotune::heat_cuda_space(sizeof(T)).enumerate()) {
    const auto p = autotune::heat_cuda_params(config);
    const int fused = config.at("fused_steps");
    if (fused == 1) continue;
    for (const int steps : {fused, 3}) {
      if (steps > fused) continue;
      const auto update = whole_grid ? active : g.grow(-steps - shrink).intersect(active);
      ++tried;
      expect.copy_from(before);
      kernels::stencil::heat_steps(in, expect, update, active, steps, c, p, nullptr);
      d_out.copy_from(before);
      kernels::stencil::heat_steps(d_in, d_out, update, active, steps, c, p, stream.get());
      got.copy_from(d_out);
      EXPECT_EQ(gridflow::testing::points_differing(got, expect, g), 0u) << p << " steps " << steps;
    }
  }
  EXPECT_GT(tried, 100);
}

}  // namespace

TYPED_TEST(HeatFusedGpu, EveryFusedConfigurationMatchesTheOracleOnOneRank) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  // The whole grid on one rank with one ghost layer: the fused tiles reach past the ghosts, where
  // nothing is read, and the boundary points keep their values.
  const mesh::Box<2> points{{0, 0}, {300, 172}};
  expect_space_matches_oracle<TypeParam>(points, 1, points.grow(-1), /*whole_grid=*/true);
}

TYPED_TEST(HeatFusedGpu, InteriorWarpsOfEveryStreamingShapeMatchTheOracle) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  // The streaming kernel's warps that lie wholly inside the active box run in a kernel of their own,
  // without the selects and the ring's tests (strip_inside, segment_inside). On the grid above only
  // strips of 2 and 4 values a lane have such warps; 561 x 301 points give them to 8 values a lane
  // too (a strip of 256 columns, its second one ending at column 487) and to segments of 128 rows
  // (rows 128..255).
  const mesh::Box<2> points{{0, 0}, {560, 300}};
  expect_space_matches_oracle<TypeParam>(points, 1, points.grow(-1), /*whole_grid=*/true);
}

TYPED_TEST(HeatFusedGpu, EveryFusedConfigurationMatchesTheOracleOnARankWithDeepGhosts) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  const mesh::Box<2> interior{{1, 1}, {299, 171}};
  // A rank inside the grid, and one in its corner, with 8 ghost layers: a launch of k steps writes
  // the owned box grown by 8 - k (the first launch after an exchange) and by less later.
  const mesh::Box<2> inside{{60, 40}, {201, 130}}, corner{{0, 0}, {140, 90}};
  expect_space_matches_oracle<TypeParam>(inside, 8, interior, false);
  expect_space_matches_oracle<TypeParam>(corner, 8, interior, false, 3);
}

TYPED_TEST(HeatFusedGpu, SolverWithFusedStepsMatchesTheHostRunBitwise) {
  GRIDFLOW_REQUIRE_GPU();
  using T = TypeParam;
  halo::bind_gpu_by_local_rank(MPI_COMM_WORLD, /*allow_sharing=*/true);
  // 203 steps: every launch count leaves a remainder; widths 2..8 on several ranks.
  for (const auto& [fused, width] : {std::pair{2, 2}, {4, 4}, {4, 8}, {8, 8}, {2, 3}}) {
    const auto config = gridflow::testing::heat_config(still_deck, {precision_of(sizeof(T)), "halo.width=" + std::to_string(width)});
    const auto host = gridflow::testing::run_heat_gathered<T>(config, MPI_COMM_WORLD, mesh::MemorySpace::host);
    kernels::stencil::HeatCudaParams cuda;
    cuda.block_y = 4;
    const auto device = gridflow::testing::run_heat_gathered<T>(config, MPI_COMM_WORLD, mesh::MemorySpace::device,
                                                                halo::Transport::mpi, cuda, fused);
    ASSERT_EQ(host.size(), device.size());
    std::size_t differ = 0;
    for (std::size_t k = 0; k < host.size(); ++k) differ += host[k] != device[k];
    EXPECT_EQ(differ, 0u) << "fused " << fused << ", width " << width;
  }
}

TYPED_TEST(HeatFusedGpu, FusedStepsAreRefusedWhereTheyCannotBeExact) {
  GRIDFLOW_REQUIRE_GPU();
  using T = TypeParam;
  halo::bind_gpu_by_local_rank(MPI_COMM_WORLD, /*allow_sharing=*/true);
  const int ranks = gridflow::testing::world_size();
  mesh::Stream stream;
  const auto moving = gridflow::testing::heat_config(
      "[grid]\nn = [65, 65]\n[heat]\nsteps = 10\ninitial = 'x'\n"
      "[heat.boundary]\nleft = 't'\nright = '0'\nbottom = '0'\ntop = '0'\n",
      {precision_of(sizeof(T))});
  const mesh::Decomposition<2> d(moving.grid, MPI_COMM_WORLD, {0, 0}, 2);
  solver::HeatSolver<T> solver(moving, d, mesh::MemorySpace::device, stream.get(), halo::Transport::mpi, {}, 2);
  auto t = solver.tunables();
  t.fused_steps = 2;
  t.ghost_width = 2;
  EXPECT_NO_THROW(solver.set_tunables(t)) << "moving boundary values reach the fused steps through the ring";
  t.cuda.stream_cells_x = 4;
  t.fused_steps = 16;
  t.ghost_width = 2;
  EXPECT_THROW(solver.set_tunables(t), Error) << "the streaming kernel with 4 cells a lane takes 8 steps";

  const auto still = gridflow::testing::heat_config(still_deck, {precision_of(sizeof(T))});
  const mesh::Decomposition<2> e(still.grid, MPI_COMM_WORLD, {0, 0}, 2);
  solver::HeatSolver<T> fixed(still, e, mesh::MemorySpace::device, stream.get(), halo::Transport::mpi, {}, 2);
  t = fixed.tunables();
  t.fused_steps = 4;
  t.ghost_width = 2;
  if (ranks > 1) EXPECT_THROW(fixed.set_tunables(t), Error) << "ghosts valid 2 steps deep";
  else EXPECT_NO_THROW(fixed.set_tunables(t));
  t.cuda = {256, 4, 8};  // fused 8 deep, a 256 x 48 tile, twice: over the shared memory of a launch
  t.fused_steps = 8;
  t.ghost_width = 2;
  if (ranks == 1) {
    EXPECT_THROW(fixed.set_tunables(t), Error);
  }

  // A direct call asking for more steps than a 32-wide block has columns beyond its rims.
  const mesh::Box<2> box{{0, 0}, {40, 40}};
  mesh::Field<T, 2> in(box, 1, mesh::MemorySpace::device), out(box, 1, mesh::MemorySpace::device);
  const kernels::stencil::HeatCudaParams narrow{32, 2, 4};
  EXPECT_THROW(kernels::stencil::heat_steps(in, out, box.grow(-1), box.grow(-1), 16, {T(0.1), T(0.1)}, narrow, stream.get()), Error);
}

TYPED_TEST(HeatFusedGpu, SwitchingFusedStepsBetweenAdvancesChangesNoBit) {
  GRIDFLOW_REQUIRE_GPU();
  using T = TypeParam;
  halo::bind_gpu_by_local_rank(MPI_COMM_WORLD, /*allow_sharing=*/true);
  const auto config = gridflow::testing::heat_config(still_deck, {precision_of(sizeof(T))});
  const mesh::Decomposition<2> d(config.grid, MPI_COMM_WORLD, {0, 0}, 1);
  mesh::Stream stream;
  solver::HeatSolver<T> steady(config, d, mesh::MemorySpace::device, stream.get(), halo::Transport::mpi, {}, 8);
  solver::HeatSolver<T> switching(config, d, mesh::MemorySpace::device, stream.get(), halo::Transport::mpi, {}, 8);
  steady.advance(610);
  for (int k = 0; k < 12; ++k) {  // as the on-line tuner does: launch shape, fused steps and width change
    auto t = switching.tunables();
    t.ghost_width = k % 2 ? 8 : 4;
    t.cuda = kernels::stencil::HeatCudaParams{k % 3 ? 64 : 128, 2, k % 2 ? 4 : 2};
    t.fused_steps = 1 << (k % 4);
    ASSERT_TRUE(t.cuda.fits_shared_memory(t.fused_steps, sizeof(T))) << t.cuda << " fused " << t.fused_steps;
    switching.set_tunables(t);
    switching.advance(k == 11 ? 60 : 50);
  }
  EXPECT_EQ(gridflow::testing::owned_points_differing(steady, switching, d.owned(), stream.get()), 0u);
  EXPECT_EQ(switching.step(), 610);
}

TYPED_TEST(HeatFusedGpu, OnlineTuningOverFusedStepsLeavesTheSolutionBitwiseUnchanged) {
  GRIDFLOW_REQUIRE_GPU();
  using T = TypeParam;
  halo::bind_gpu_by_local_rank(MPI_COMM_WORLD, /*allow_sharing=*/true);
  const gridflow::testing::ScratchCache cache("heat_fused_gpu", MPI_COMM_WORLD);
  const std::string p = precision_of(sizeof(T));
  const auto off = gridflow::testing::run_heat_tuned<T>(gridflow::testing::heat_config(still_deck, {p, "tuning.mode=off", "heat.steps=3000", cache.key()}),
                                              MPI_COMM_WORLD, mesh::MemorySpace::device);
  const auto online = gridflow::testing::run_heat_tuned<T>(
      gridflow::testing::heat_config(still_deck, {p, "heat.steps=3000", "tuning.strategy=local", "tuning.budget=16", "tuning.repeats=1",
                               cache.key()}),
      MPI_COMM_WORLD, mesh::MemorySpace::device);
  ASSERT_TRUE(online.tuning.outcome.report) << online.tuning.text();
  std::size_t differ = 0;
  for (std::size_t k = 0; k < off.field.size(); ++k) differ += off.field[k] != online.field[k];
  EXPECT_EQ(differ, 0u) << online.tuning.text();
  std::printf("%s\n", online.tuning.text().c_str());
}
