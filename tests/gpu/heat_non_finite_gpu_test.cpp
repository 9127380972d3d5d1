// The non-finite flag on the device against the host oracle's: a NaN planted in the input of the
// one-step kernel (every cells-per-thread variant) and of fused launches (tile and streaming kernels,
// 2 to 8 steps, the NaN in a ghost so that it reaches the written points steps later), a heat run
// whose top boundary value turns NaN at a known time (fused launches too), and an unstable run (dt
// above the bound) whose values overflow, stepped with fused launches and deep ghosts on 1 or N
// ranks. Device and host name the same first step and point, and the flag changes no value.
#include <gtest/gtest.h>
#include <mpi.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "gpu_test_support.hpp"
#include "halo/gpu_binding.hpp"
#include "heat_non_finite_test_support.hpp"
#include "heat_test_support.hpp"
#include "kernels/core/non_finite_flag.hpp"
#include "kernels/stencil/heat.hpp"
#include "mesh/device.hpp"

namespace {

using namespace gridflow;
using gridflow::testing::bits_differing;
using gridflow::testing::fill_smooth;
using gridflow::testing::grid_of;
using kernels::core::no_non_finite;
using kernels::core::NonFiniteFlag;

template <class T>
class HeatNonFiniteGpu : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(HeatNonFiniteGpu, Precisions);

std::string precision_of(std::size_t bytes) { return bytes == 4 ? "precision=float" : "precision=double"; }

std::string where(const NonFiniteFlag& flag, std::uint64_t key) {
  if (key == no_non_finite) return "none";
  const auto at = flag.decode(key);
  return "step " + std::to_string(at.step) + " at (" + std::to_string(at.i) + ", " + std::to_string(at.j) + ")";
}

TYPED_TEST(HeatNonFiniteGpu, KernelsFlagThePointsTheHostOracleFlags) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  using T = TypeParam;
  const auto grid = grid_of(511, 383);
  const mesh::Box<2> owned{{37, 21}, {300, 200}};
  const int ghost = 8;
  mesh::Field<T, 2> in(owned, ghost, mesh::MemorySpace::host), expect(owned, ghost, mesh::MemorySpace::host),
      got(owned, ghost, mesh::MemorySpace::host);
  mesh::Field<T, 2> d_in(owned, ghost, mesh::MemorySpace::device), d_out(owned, ghost, mesh::MemorySpace::device);
  const kernels::stencil::HeatCoefficients<T> c{T(0.2), T(0.15)};
  mesh::Stream stream;
  // The NaN inside the owned box, and in a ghost row 3 below it: launches of 3 or more steps compute
  // its neighbour (the rim of their first step), shorter ones never read it and must flag nothing.
  for (const auto& nan_at : {std::array<mesh::Index, 2>{150, 100}, std::array<mesh::Index, 2>{201, 21 - 3}}) {
    fill_smooth(in);
    in(nan_at[0], nan_at[1]) = std::numeric_limits<T>::quiet_NaN();
    d_in.copy_from(in);
    std::vector<kernels::stencil::HeatCudaParams> shapes;
    for (int cpt : {1, 2, 4, 8}) shapes.push_back({64, 2, cpt});
    for (int v : {2, 4, 8}) shapes.push_back({64, 2, 4, v, 64});  // the streaming kernel
    for (int steps : {1, 2, 3, 4, 7}) {
      for (const auto& p : shapes) {
        if (!p.fits_shared_memory(steps, sizeof(T))) continue;
        NonFiniteFlag host(grid, mesh::MemorySpace::host), device(grid, mesh::MemorySpace::device);
        fill_smooth(expect);
        d_out.copy_from(expect);
        kernels::stencil::heat_steps(in, expect, owned, grid.interior(), steps, c, p, nullptr, host.watch(40));
        kernels::stencil::heat_steps(d_in, d_out, owned, grid.interior(), steps, c, p, stream.get(), device.watch(40));
        const std::uint64_t want = host.read(nullptr), have = device.read(stream.get());
        got.copy_from(d_out);
        EXPECT_EQ(where(host, have), where(host, want)) << steps << " steps, " << p << ", NaN at (" << nan_at[0] << ", "
                                                        << nan_at[1] << ")";
        if (nan_at[1] >= owned.lo[1] || steps >= 3) EXPECT_NE(want, no_non_finite) << steps << " steps";
        else EXPECT_EQ(have, no_non_finite) << steps << " steps: the NaN reaches no point they compute";
        EXPECT_EQ(bits_differing(expect, got, owned, /*any_nan_matches=*/true), 0u) << steps << " steps, " << p;
      }
    }
  }
  NonFiniteFlag clean(grid, mesh::MemorySpace::device);
  fill_smooth(in);
  d_in.copy_from(in);
  kernels::stencil::heat_steps(d_in, d_out, owned, grid.interior(), 4, c, {64, 2, 4}, stream.get(), clean.watch(1));
  kernels::stencil::heat_steps(d_in, d_out, owned, grid.interior(), 1, c, {64, 2, 4}, stream.get(), clean.watch(1));
  EXPECT_EQ(clean.read(stream.get()), no_non_finite);
}

/// The first non-finite value of `config` over `comm`: the global minimum of every rank's flag
/// after all steps (decoded with the host flag's keying: both key the same grid).
template <class T>
std::uint64_t first_non_finite(const solver::HeatConfig& config, MPI_Comm comm, mesh::MemorySpace space, int fused,
                               int width, const kernels::stencil::HeatCudaParams& cuda = {}) {
  const mesh::Decomposition<2> d(config.grid, comm, {0, 0}, width);
  std::optional<mesh::Stream> stream;
  if (space == mesh::MemorySpace::device) stream.emplace();
  const StreamHandle s = stream ? stream->get() : nullptr;
  solver::HeatSolver<T> solver(config, d, space, s, halo::Transport::mpi, cuda, width);
  auto t = solver.tunables();
  t.ghost_width = width;
  t.fused_steps = fused;
  solver.set_tunables(t);
  solver.advance(config.steps);
  const std::uint64_t local = solver.non_finite().read(s);
  std::uint64_t global = local;
  MPI_Allreduce(&local, &global, 1, MPI_UINT64_T, MPI_MIN, comm);
  return global;
}

TYPED_TEST(HeatNonFiniteGpu, ANaNBoundaryValueIsFlaggedAtTheHostsStepAndPoint) {
  GRIDFLOW_REQUIRE_GPU();
  using T = TypeParam;
  halo::bind_gpu_by_local_rank(MPI_COMM_WORLD, /*allow_sharing=*/true);
  const std::string deck = "[grid]\nn = [200, 150]\nlength = [1.0, 0.75]\n[heat]\na = 0.5\nsteps = 80\ninitial = 'x^2'\n"
                           "[heat.boundary]\nleft = 'x^2 + 2*a*t'\nright = 'x^2 + 2*a*t'\nbottom = 'x^2 + 2*a*t'\n";
  const double dt = gridflow::testing::heat_config(deck, {precision_of(sizeof(T))}).dt;
  char when[64];
  std::snprintf(when, sizeof when, "%.17g", 52.5 * dt);
  const auto config = gridflow::testing::heat_config(
      deck, {precision_of(sizeof(T)), std::string("heat.boundary.top=x + 0*sqrt(") + when + " - t)"});
  const NonFiniteFlag keys(config.grid, mesh::MemorySpace::host);
  const auto host = first_non_finite<T>(config, MPI_COMM_WORLD, mesh::MemorySpace::host, 1, 1);
  const auto device = first_non_finite<T>(config, MPI_COMM_WORLD, mesh::MemorySpace::device, 1, 1);
  EXPECT_EQ(where(keys, host), "step 53 at (1, 150)");
  EXPECT_EQ(where(keys, device), where(keys, host));
  // Fused launches evaluate the moving boundary for their inner steps (DirichletBoundary::ring).
  for (const int v : {0, 2}) {
    const kernels::stencil::HeatCudaParams cuda{64, 2, 4, v, 64};
    for (const int fused : {4, 8})
      EXPECT_EQ(where(keys, first_non_finite<T>(config, MPI_COMM_WORLD, mesh::MemorySpace::device, fused, 8, cuda)),
                where(keys, host))
          << fused << " fused steps, " << cuda;
  }
}

TYPED_TEST(HeatNonFiniteGpu, AnUnstableRunOverflowsAtTheHostsStepAndPointWithFusedSteps) {
  GRIDFLOW_REQUIRE_GPU();
  using T = TypeParam;
  halo::bind_gpu_by_local_rank(MPI_COMM_WORLD, /*allow_sharing=*/true);
  auto config = gridflow::testing::heat_config(
      "[grid]\nn = [301, 173]\nlength = [1.0, 0.6]\n[heat]\na = 0.8\nsteps = 700\n"
      "initial = 'sin(3*x) * cos(2*y) + x*y'\n[heat.boundary]\nleft = 'y'\nright = 'cos(y)'\nbottom = 'x^2'\ntop = '1 - x'\n",
      {precision_of(sizeof(T))});
  config.dt = 3 * config.dt_stable;  // the checkerboard mode grows 5x a step until it overflows
  const NonFiniteFlag keys(config.grid, mesh::MemorySpace::host);
  const auto host = first_non_finite<T>(config, MPI_COMM_WORLD, mesh::MemorySpace::host, 1, 4);
  ASSERT_NE(host, no_non_finite) << "the run did not overflow in " << config.steps << " steps";
  for (int fused : {1, 2, 4}) {
    const auto device = first_non_finite<T>(config, MPI_COMM_WORLD, mesh::MemorySpace::device, fused, 4);
    EXPECT_EQ(where(keys, device), where(keys, host)) << fused << " fused steps";
    const kernels::stencil::HeatCudaParams streaming{64, 2, 4, 4, 64};
    EXPECT_EQ(where(keys, first_non_finite<T>(config, MPI_COMM_WORLD, mesh::MemorySpace::device, fused, 4, streaming)),
              where(keys, host))
        << fused << " fused steps, " << streaming;
  }
}

}  // namespace
