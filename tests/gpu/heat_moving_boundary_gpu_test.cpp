// Fused heat steps with boundary values that move in time, on the device: every fused
// configuration of the tuner's space (the tile and the streaming kernel), k in {2, 3, 4, 8, 16}
// where it takes them, given the inner steps' boundary values by DirichletBoundary::ring in device
// memory, equals k single host steps that set the boundary after each, bitwise; then whole solver
// runs with fused steps and a moving boundary against the host run, at 1 and N ranks.
#include <gtest/gtest.h>
#include <mpi.h>

#include <map>
#include <string>
#include <tuple>

#include "autotune/kernel_spaces.hpp"
#include "gpu_test_support.hpp"
#include "halo/gpu_binding.hpp"
#include "heat_moving_boundary_test_support.hpp"
#include "mesh/device.hpp"

namespace {

using namespace gridflow;

template <class T>
class HeatMovingBoundaryGpu : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(HeatMovingBoundaryGpu, Precisions);

std::string precision_of(std::size_t bytes) { return bytes == 4 ? "precision=float" : "precision=double"; }

}  // namespace

TYPED_TEST(HeatMovingBoundaryGpu, EveryFusedConfigurationEqualsSingleStepsBitwise) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  using T = TypeParam;
  gridflow::testing::MovingBoundaryCase<T> cases;
  const auto& config = cases.config();
  mesh::Stream stream;
  solver::DirichletBoundary<T, 2> boundary(config.grid, config.boundary, mesh::MemorySpace::device, stream.get());
  const int ghost = 16;
  const mesh::Box<2> corner{{0, 0}, {60, 40}};
  std::map<int, mesh::Field<T, 2>> chains;
  int tried = 0;
  for (const auto& c : autotune::heat_cuda_space(sizeof(T)).enumerate()) {
    const int fused = c.at("fused_steps");
    if (fused == 1) continue;
    const auto p = autotune::heat_cuda_params(c);
    for (const int k : {2, 3, 4, 8, 16}) {
      if (k > fused || (k != fused && k != 3)) continue;
      if (!chains.count(k)) chains.emplace(k, cases.chain(k));
      const auto& expect = chains.at(k);
      for (const auto& [owned, g] : {std::pair{cases.points(), 1}, {corner, ghost}}) {
        const auto update = g == 1 ? cases.interior() : owned.grow(g - k).intersect(cases.interior());
        mesh::Field<T, 2> in(owned, g, mesh::MemorySpace::device), out(owned, g, mesh::MemorySpace::device);
        mesh::Field<T, 2> got(owned, g, mesh::MemorySpace::host);
        in.copy_from(cases.start(owned, g));
        const auto ring = boundary.ring(update.grow(k).intersect(cases.points()), 0, config.dt, k);
        kernels::stencil::heat_steps(in, out, update, cases.interior(), k, cases.coefficients(), p, stream.get(), {}, ring);
        mesh::synchronize(stream.get());
        got.copy_from(out);
        EXPECT_EQ(gridflow::testing::points_differing(got, expect, update), 0u) << p << ", " << k << " steps on " << owned;
        ++tried;
      }
    }
  }
  EXPECT_GT(tried, 100);
}

TYPED_TEST(HeatMovingBoundaryGpu, SolverWithFusedStepsMatchesTheHostRunBitwise) {
  GRIDFLOW_REQUIRE_GPU();
  using T = TypeParam;
  halo::bind_gpu_by_local_rank(MPI_COMM_WORLD, /*allow_sharing=*/true);
  kernels::stencil::HeatCudaParams tile, streaming;
  tile.block_x = 128;
  streaming.stream_cells_x = 2;
  streaming.segment_rows = 64;
  // 37 steps: launches of every depth leave a remainder.
  for (const auto& [fused, width, cuda] : {std::tuple{2, 2, tile}, {4, 4, tile}, {3, 8, streaming}, {8, 8, streaming},
                                           {16, 16, streaming}, {4, 16, streaming}}) {
    if (!cuda.fits_shared_memory(fused, sizeof(T))) continue;  // the streaming kernel takes 8 steps of doubles
    const auto config = gridflow::testing::heat_config(
        gridflow::testing::moving_boundary_deck, {precision_of(sizeof(T)), "heat.steps=37", "halo.width=" + std::to_string(width)});
    const auto host = gridflow::testing::run_heat_gathered<T>(config, MPI_COMM_WORLD, mesh::MemorySpace::host);
    const auto device = gridflow::testing::run_heat_gathered<T>(config, MPI_COMM_WORLD, mesh::MemorySpace::device,
                                                                halo::Transport::mpi, cuda, fused);
    ASSERT_EQ(host.size(), device.size());
    std::size_t differ = 0;
    for (std::size_t k = 0; k < host.size(); ++k) differ += host[k] != device[k];
    EXPECT_EQ(differ, 0u) << "fused " << fused << ", width " << width << ", " << cuda;
  }
}
