// The Jacobi search space with fused sweeps (temporal blocking): each variant keeps the parameters
// it ignores at their defaults, every fused configuration fits its kernel, every offered sweep
// count has configurations in both precisions, and the solver's bounds on the count.
#include <gtest/gtest.h>

#include <set>
#include <utility>
#include <vector>

#include "autotune/kernel_spaces.hpp"
#include "poisson_test_support.hpp"
#include "solver/jacobi_tuning.hpp"

using gridflow::autotune::Configuration;
using gridflow::kernels::stencil::JacobiCudaParams;

TEST(JacobiFusedSpace, VariantsKeepWhatTheyIgnoreAtTheDefaults) {
  const JacobiCudaParams d;
  EXPECT_FALSE(gridflow::autotune::jacobi_cuda_space(sizeof(float)).default_configuration().has("fused_steps"));
  for (const std::size_t bytes : {sizeof(float), sizeof(double)}) {
    const auto space = gridflow::autotune::jacobi_cuda_space(bytes, 8);
    EXPECT_EQ(space.default_configuration().at("fused_steps"), 1) << "one sweep per launch is legal everywhere";
    std::set<int> offered;
    for (const auto& c : space.enumerate()) {
      const auto p = gridflow::autotune::jacobi_cuda_params(c);
      const int sweeps = c.at("fused_steps");
      EXPECT_TRUE(p.valid()) << c;
      EXPECT_TRUE(p.fits_sweeps(sweeps, bytes)) << c;
      if (sweeps == 1) {
        EXPECT_EQ(p.cells_y, d.cells_y) << c;
        EXPECT_EQ(p.chunk_z, d.chunk_z) << c;
      } else {
        EXPECT_EQ(p.cells_z, d.cells_z) << c;
        EXPECT_EQ(p.cells_x, d.cells_x) << c;
        EXPECT_FALSE(p.shared_tile) << c;
        EXPECT_LE(p.fused_shared_bytes(sweeps, bytes), JacobiCudaParams::max_fused_shared_bytes) << c;
        EXPECT_GT(p.block_y * p.cells_y, 2 * sweeps) << c;
      }
      offered.insert(sweeps);
      Configuration back{{"fused_steps", sweeps}, {"cells_y", 0}, {"chunk_z", 0}};  // fused_steps is the solver's
      gridflow::autotune::set_jacobi_cuda_params(back, p);
      EXPECT_EQ(back, c);
    }
    EXPECT_EQ(offered, (std::set<int>{1, 2, 3, 4, 8}));
    const auto up_to_3 = gridflow::autotune::jacobi_cuda_space(bytes, 3).parameter("fused_steps").values;
    EXPECT_EQ(up_to_3, (std::vector<int>{1, 2, 3}));
  }
}

TEST(JacobiFusedSpace, LaunchCountsTakeTheLargestKernelAtMost) {
  using gridflow::kernels::stencil::jacobi_fused_sweeps_at_most;
  const int expected[] = {1, 1, 2, 3, 4, 4, 4, 4, 8, 8, 8};
  for (int n = 0; n <= 10; ++n) EXPECT_EQ(jacobi_fused_sweeps_at_most(n), expected[n]) << n;
}

TEST(JacobiFusedSpace, TheSolverBoundsTheSweepsPerLaunch) {
  using namespace gridflow;
  const std::string deck = "solver = 'jacobi'\n[grid]\nn = [25, 21, 19]\n[poisson]\nrhs = '1'\n";
  const solver::GhostWidthPlan fixed{1, {}}, tuned{1, {1, 2, 4}};
  const std::pair<int, int> every_most[] = {{10, 8}, {4, 3}, {2, 1}, {1, 1}, {100, 8}};
  for (const auto& [every, most] : every_most) {
    const auto c = gridflow::testing::poisson_config(deck, {"poisson.check_every=" + std::to_string(every)});
    const mesh::Decomposition<3> one(c.grid, MPI_COMM_SELF, {0, 0, 0}, 1);
    EXPECT_EQ(solver::jacobi_max_fused_sweeps(c, one, fixed), most) << "check_every " << every;
  }
  // With the width tuned, no configuration fuses more sweeps than its ghost width.
  const auto space = solver::jacobi_space(mesh::MemorySpace::device, sizeof(float), tuned, false, halo::Transport::mpi, 8);
  std::set<int> offered;
  for (const auto& c : space.enumerate()) {
    EXPECT_LE(c.at("fused_steps"), c.at("ghost_width")) << c;
    offered.insert(c.at("fused_steps"));
  }
  EXPECT_EQ(offered, (std::set<int>{1, 2, 3, 4}));
  EXPECT_FALSE(solver::jacobi_space(mesh::MemorySpace::host, sizeof(float), fixed, false, halo::Transport::mpi, 8)
                   .default_configuration()
                   .has("fused_steps"));
}
