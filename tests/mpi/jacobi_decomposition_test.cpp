// Jacobi on N ranks equals Jacobi on one rank bitwise, for ghost widths 1..3 and several process
// grids, on a grid that does not divide evenly: same sweeps, same residual history; and with
// several sweeps per launch.
#include <gtest/gtest.h>
#include <mpi.h>

#include "jacobi_sweeps_test_support.hpp"
#include "mesh/check.hpp"
#include "mpi_test_support.hpp"
#include "poisson_test_support.hpp"

namespace {
template <class T>
class JacobiDecomposition : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(JacobiDecomposition, Precisions);

const std::string deck =
    "solver = 'jacobi'\n[grid]\nn = [25, 21, 19]\n[poisson]\ntolerance = 1e-14\nmax_iterations = 23\ncheck_every = 7\n"
    "rhs = 'sin(3*x) + y*z'\n[poisson.boundary]\nx_low = 'y'\nz_high = 'x*y + 1'\n";
}  // namespace

TYPED_TEST(JacobiDecomposition, NRanksEqualOneRankBitwise) {
  using T = TypeParam;
  const int n = gridflow::testing::world_size();
  const std::string precision = std::string("precision=") + (sizeof(T) == 4 ? "float" : "double");
  const auto ref = gridflow::testing::solve_gathered<T>(gridflow::testing::poisson_config(deck, {precision}), MPI_COMM_SELF);
  const std::string grids[] = {"decomposition=[0,0,0]", "decomposition=[" + std::to_string(n) + ",1,1]",
                               "decomposition=[1,1," + std::to_string(n) + "]"};
  for (int width = 1; width <= 3; ++width)
    for (const auto& dims : grids) {
      const auto c = gridflow::testing::poisson_config(deck, {precision, dims, "halo.width=" + std::to_string(width)});
      const auto got = gridflow::testing::solve_gathered<T>(c, MPI_COMM_WORLD);
      std::size_t differ = 0;
      for (std::size_t q = 0; q < got.u.size(); ++q) differ += got.u[q] != ref.u[q];
      EXPECT_EQ(differ, 0u) << n << " ranks, " << dims << ", halo.width=" << width;
      ASSERT_EQ(got.report.history.size(), ref.report.history.size());
      for (std::size_t h = 0; h < got.report.history.size(); ++h)
        EXPECT_NEAR(got.report.history[h].relative_residual, ref.report.history[h].relative_residual,
                    1e-12 * ref.report.history[h].relative_residual);
    }
}

// Launches of several sweeps (temporal blocking; on host fields, the same sweeps one by one
// through jacobi_sweeps) leave the solve as it is: u bitwise against one rank taking one sweep per
// launch, the residual history bitwise against the same ranks taking one sweep per launch.
TYPED_TEST(JacobiDecomposition, FusedSweepsEqualSingleSweepsBitwise) {
  using T = TypeParam;
  using namespace gridflow;
  const int n = gridflow::testing::world_size();
  const std::string precision = std::string("precision=") + (sizeof(T) == 4 ? "float" : "double");
  const std::string every = "poisson.check_every=10";  // up to 9 sweeps between checks: 8 fuse
  const auto ref = gridflow::testing::solve_gathered<T>(gridflow::testing::poisson_config(deck, {precision, every}), MPI_COMM_SELF);
  const std::string grids[] = {"[0,0,0]", "[1,1," + std::to_string(n) + "]"};
  for (const int fused : {2, 3, 4, 8})
    for (const auto& dims : grids) {
      if (dims != "[0,0,0]" && 19 / n < fused) continue;  // a rank would own fewer planes than the ghost width
      const auto c = gridflow::testing::poisson_config(
          deck, {precision, every, "decomposition=" + dims, "halo.width=" + std::to_string(fused)});
      auto solve = [&](int launch_sweeps) {
        return gridflow::testing::solve_jacobi_adjusted<T>(c, MPI_COMM_WORLD, mesh::MemorySpace::host,
                                                           [&](solver::JacobiTunables& t) { t.fused_steps = launch_sweeps; });
      };
      const auto single = solve(1), got = solve(fused);
      std::size_t differ = 0;
      for (std::size_t q = 0; q < got.u.size(); ++q) differ += got.u[q] != ref.u[q];
      EXPECT_EQ(differ, 0u) << n << " ranks, " << dims << ", " << fused << " fused sweeps";
      ASSERT_EQ(got.report.history.size(), single.report.history.size());
      EXPECT_EQ(got.report.iterations, ref.report.iterations);
      for (std::size_t h = 0; h < got.report.history.size(); ++h) {
        EXPECT_EQ(got.report.history[h].iteration, single.report.history[h].iteration);
        EXPECT_EQ(got.report.history[h].relative_residual, single.report.history[h].relative_residual)
            << n << " ranks, " << dims << ", " << fused << " fused sweeps, check " << h;
      }
    }
}

TYPED_TEST(JacobiDecomposition, FusedSweepsBeyondTheGhostWidthAreRefused) {
  using T = TypeParam;
  using namespace gridflow;
  if (gridflow::testing::world_size() < 2) GTEST_SKIP() << "one rank needs no ghosts between its launches";
  const auto c = gridflow::testing::poisson_config(deck, {"halo.width=2"});
  auto solve = [&](int launch_sweeps) {
    return gridflow::testing::solve_jacobi_adjusted<T>(c, MPI_COMM_WORLD, mesh::MemorySpace::host,
                                                       [&](solver::JacobiTunables& t) { t.fused_steps = launch_sweeps; });
  };
  try {
    solve(3);
    ADD_FAILURE() << "3 fused sweeps with ghost width 2 were accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("exceed the ghost width 2"), std::string::npos) << e.what();
  }
  EXPECT_THROW(solve(9), Error);
}
