// Jacobi on N ranks equals Jacobi on one rank bitwise, for ghost widths 1..3 and several process
// grids, on a grid that does not divide evenly: same sweeps, same residual history.
#include <gtest/gtest.h>
#include <mpi.h>

#include "poisson_test_support.hpp"
#include "mpi_test_support.hpp"

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
