// The spectral (DST-I) solver over MPI_COMM_WORLD at every rank count the suite runs: the discrete
// system solved to rounding, with uneven slabs (n = [12, 10, 14]), every way of splitting the process
// grid, deep ghosts, non-zero faces, and ranks that hold no slab or own no interior point; and the
// same field as on one rank.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>

#include "spectral_test_support.hpp"
#include "mpi_test_support.hpp"

namespace {

using gridflow::testing::max_difference;
using gridflow::testing::poisson_config;
using gridflow::testing::solve_gathered;

using gridflow::testing::world_size;
std::string decomposition(int x, int y, int z) {
  return "decomposition=[" + std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z) + "]";
}

void expect_solved(const gridflow::solver::SolveReport& report, double tolerance) {
  EXPECT_TRUE(report.converged);
  EXPECT_LE(report.relative_residual, tolerance);
  EXPECT_EQ(report.iterations, 1);
  ASSERT_EQ(report.history.size(), 1u);
  EXPECT_EQ(report.history[0].iteration, 1);
  EXPECT_EQ(report.history[0].relative_residual, report.relative_residual);
}

}  // namespace

TEST(SpectralSolverMpi, SineSolutionToRoundingAndAsOnOneRank) {
  const auto config = poisson_config(gridflow::testing::spectral_sine_deck);
  const auto single = solve_gathered<double>(config, MPI_COMM_SELF);
  expect_solved(single.report, 1e-12);
  const int p = world_size();
  for (const auto& split : {decomposition(0, 0, 0), decomposition(p, 1, 1), decomposition(1, p, 1), decomposition(1, 1, p)}) {
    const auto c = poisson_config(gridflow::testing::spectral_sine_deck, {split});
    const auto world = solve_gathered<double>(c, MPI_COMM_WORLD);
    expect_solved(world.report, 1e-12);
    EXPECT_LT(max_difference(world.u, single.u), 1e-13) << split;
  }
  // The discrete solution, not the exact one: the discretisation error is h^2-sized.
  const double err = gridflow::testing::max_error(single.u, config.grid, [](double x, double y, double z) {
    return std::sin(M_PI * x) * std::sin(2 * M_PI * y) * std::sin(3 * M_PI * z);
  });
  EXPECT_GT(err, 1e-3);
  EXPECT_LT(err, 0.2);
}

TEST(SpectralSolverMpi, NonZeroFacesExactSolutionOnEveryDecomposition) {
  const auto deck = gridflow::testing::spectral_polynomial_deck();
  const auto single = solve_gathered<double>(poisson_config(deck), MPI_COMM_SELF);
  expect_solved(single.report, 1e-12);
  const int p = world_size();
  for (const auto& overrides : std::vector<std::vector<std::string>>{{decomposition(0, 0, 0)},
                                                                      {decomposition(0, 0, 0), "halo.width=2"},
                                                                      {decomposition(p, 1, 1)},
                                                                      {decomposition(1, 1, p)}}) {
    const auto c = poisson_config(deck, overrides);
    const auto world = solve_gathered<double>(c, MPI_COMM_WORLD);
    expect_solved(world.report, 1e-12);
    EXPECT_LT(gridflow::testing::max_error(world.u, c.grid, gridflow::testing::spectral_polynomial_exact), 1e-12)
        << overrides[0];
    EXPECT_LT(max_difference(world.u, single.u), 1e-13) << overrides[0];
  }
}

TEST(SpectralSolverMpi, FloatReachesItsRounding) {
  const auto c = poisson_config(gridflow::testing::spectral_polynomial_deck(), {"precision=float", "poisson.tolerance=1e-5"});
  const auto world = solve_gathered<float>(c, MPI_COMM_WORLD);
  expect_solved(world.report, 1e-5);
  EXPECT_LT(gridflow::testing::max_error(world.u, c.grid, gridflow::testing::spectral_polynomial_exact), 1e-5);
}

TEST(SpectralSolverMpi, MoreRanksThanPlanesLeavesSomeWithoutSlabs) {
  // 2 interior z-planes and 3 y-planes: at 3 ranks and above some ranks hold no slab.
  const std::string deck = gridflow::testing::spectral_polynomial_deck();
  const auto c = poisson_config(deck, {"grid.n=[9,4,3]"});
  const auto world = solve_gathered<double>(c, MPI_COMM_WORLD);
  expect_solved(world.report, 1e-12);
  EXPECT_LT(gridflow::testing::max_error(world.u, c.grid, gridflow::testing::spectral_polynomial_exact), 1e-12);
}

TEST(SpectralSolverMpi, RanksOwningOnlyBoundaryPoints) {
  // Points 0..2 along x split into up to 3 parts: the outer ranks own boundary points only.
  const int ranks = std::min(world_size(), 3);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, rank < ranks ? 0 : MPI_UNDEFINED, rank, &comm);
  if (comm == MPI_COMM_NULL) return;
  const auto c = poisson_config(gridflow::testing::spectral_polynomial_deck(), {"grid.n=[2,8,9]", decomposition(ranks, 1, 1)});
  const auto world = solve_gathered<double>(c, comm);
  expect_solved(world.report, 1e-12);
  EXPECT_LT(gridflow::testing::max_error(world.u, c.grid, gridflow::testing::spectral_polynomial_exact), 1e-12);
  MPI_Comm_free(&comm);
}
