// The fused CUDA Jacobi kernel (k sweeps per launch, temporal blocking) against k sweeps taken one
// by one on the host: every configuration the tuner offers, k = 2, 3, 4, 8, float and double,
// bitwise, on a box whose sizes are no multiple of any tile, both on one rank's interior and on a
// deep-halo cycle's shrinking boxes; and the Jacobi solver on the device taking k sweeps per launch
// against the host solver taking one, at 1 and 2 ranks.
#include <gtest/gtest.h>

#include <iterator>
#include <string>
#include <vector>

#include "autotune/kernel_spaces.hpp"
#include "gpu_test_support.hpp"
#include "halo/gpu_binding.hpp"
#include "jacobi_sweeps_test_support.hpp"
#include "jacobi_tuning_test_support.hpp"
#include "mesh/check.hpp"

namespace {
template <class T>
class JacobiFusedGpu : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(JacobiFusedGpu, Precisions);
}  // namespace

namespace {
/// Every fused configuration the tuner offers, at k = 2, 3, 4 and 8 sweeps, on each of `cases` of a
/// box `owned` with `ghost` layers, against k sweeps one by one on the host: bitwise on the update
/// box, out's earlier contents elsewhere. Returns how many configurations ran.
template <class T>
int expect_every_fused_configuration(const gridflow::mesh::Box<3>& owned, int ghost,
                                     const std::vector<gridflow::testing::JacobiSweepsCase>& cases) {
  using namespace gridflow;
  const auto host = mesh::MemorySpace::host, device = mesh::MemorySpace::device;
  mesh::Field<T, 3> in(owned, ghost, host), f(owned, ghost, host), before(owned, ghost, host), got(owned, ghost, host);
  gridflow::testing::fill_jacobi_fields(in, f);
  gridflow::testing::fill_jacobi_fields(before, got);  // out's earlier contents: not in's
  mesh::Stream stream;  // copy_from waits for every stream
  mesh::Field<T, 3> d_in(owned, ghost, device), d_f(owned, ghost, device), d_out(owned, ghost, device);
  d_in.copy_from(in);
  d_f.copy_from(f);
  const auto coeff = kernels::stencil::poisson_coefficients<T>(0.1, 0.12, 0.09);
  const auto space = autotune::jacobi_cuda_space(sizeof(T), kernels::stencil::JacobiCudaParams::max_fused_sweeps);
  int tried = 0, cannot_launch = 0;
  for (const auto& c : cases)
    for (const int sweeps : {2, 3, 4, 8}) {
      const auto expect = gridflow::testing::sweeps_one_by_one(in, f, sweeps, c, coeff);
      for (const auto& config : space.enumerate()) {
        if (config.at("fused_steps") != sweeps) continue;
        const auto p = autotune::jacobi_cuda_params(config);
        d_out.copy_from(before);
        try {
          kernels::stencil::jacobi_sweeps(d_in, d_out, d_f, sweeps, c.update, c.active, coeff, p, stream.get());
        } catch (const Error& e) {
          // Only a block too large for the registers of its kernel may be refused, with a reason.
          EXPECT_NE(std::string(e.what()).find("cannot launch"), std::string::npos) << e.what();
          EXPECT_GE(p.block_x * p.block_y, 512) << e.what();
          ++cannot_launch;
          continue;
        }
        ++tried;
        got.copy_from(d_out);
        EXPECT_EQ(gridflow::testing::sweeps_differences(got, expect, before, c.update), 0u) << p << ", " << sweeps << " sweeps, " << c.name;
      }
    }
  EXPECT_LT(cannot_launch, tried);
  return tried;
}
}  // namespace

TYPED_TEST(JacobiFusedGpu, EveryFusedConfigurationEqualsSweepsOneByOne) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  const gridflow::testing::JacobiSweepsSetup setup;
  EXPECT_GT(expect_every_fused_configuration<TypeParam>(setup.owned, setup.ghost, {std::begin(setup.cases), std::end(setup.cases)}), 300);
}

// A rank with neighbours on every side (its active box 20 points past its own) and a box wide enough
// that every configuration has tiles wholly inside the active box (the kernel's Interior path: from
// 256 columns, 64 rows and the shortest chunk with 8 sweeps) beside tiles at the edges that are not.
TYPED_TEST(JacobiFusedGpu, InteriorTilesOfEveryConfigurationEqualSweepsOneByOne) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  const gridflow::mesh::Box<3> owned{{0, 0, 0}, {259, 79, 45}};
  const std::vector<gridflow::testing::JacobiSweepsCase> cases{
      {"middle rank", owned, {{-20, -20, -20}, {279, 99, 65}}}};
  EXPECT_GT(expect_every_fused_configuration<TypeParam>(owned, gridflow::testing::JacobiSweepsSetup::ghost, cases), 150);
}

// k sweeps per launch (ghost width k between ranks) against one rank of the host taking one sweep
// per launch: u bitwise, the same checks; the residuals to the order of the device's block sums.
TYPED_TEST(JacobiFusedGpu, SolverTakingSeveralSweepsPerLaunchEqualsTheHost) {
  GRIDFLOW_REQUIRE_GPU();
  using T = TypeParam;
  using namespace gridflow;
  halo::bind_gpu_by_local_rank(MPI_COMM_WORLD, /*allow_sharing=*/true);
  const std::string precision = std::string("precision=") + (sizeof(T) == 4 ? "float" : "double");
  const std::string deck =
      "solver = 'jacobi'\n[grid]\nn = [61, 47, 53]\n[poisson]\ntolerance = 1e-14\nmax_iterations = 75\ncheck_every = 10\n"
      "rhs = 'sin(3*x) + y*z'\n[poisson.boundary]\nx_low = 'y'\nz_high = 'x*y + 1'\n";
  const auto host_config = gridflow::testing::poisson_config(deck, {precision});
  const auto reference = gridflow::testing::solve_gathered<T>(host_config, MPI_COMM_SELF, mesh::MemorySpace::host);
  for (const int fused : {1, 2, 3, 4, 8}) {
    const auto c = gridflow::testing::poisson_config(deck, {precision, "halo.width=" + std::to_string(fused)});
    const auto got = gridflow::testing::solve_jacobi_adjusted<T>(c, MPI_COMM_WORLD, mesh::MemorySpace::device,
                                                                 [&](solver::JacobiTunables& t) {
                                                                   t.fused_steps = fused;
                                                                   t.cuda.block_x = fused > 4 ? 32 : 64;  // 8 deep: within shared memory
                                                                   t.cuda.cells_y = fused > 4 ? 4 : 2;
                                                                   t.cuda.chunk_z = 32;
                                                                 });
    EXPECT_EQ(gridflow::testing::solve_differences(got, reference, 1e-10), 0u)
        << gridflow::testing::world_size() << " ranks, " << fused << " sweeps per launch, " << precision;
  }
}
