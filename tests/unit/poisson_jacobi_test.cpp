// The Jacobi solver on a solution the 7-point operator reproduces exactly, with non-zero faces:
// reached to the tolerance, with a residual history that falls at every check.
#include <gtest/gtest.h>

#include <cmath>

#include "poisson_test_support.hpp"

TEST(PoissonJacobi, NonZeroFacesExactSolution) {
  // u = x^2 + y z + 3: A u = 2 exactly on the grid.
  const std::string u = "x^2 + y*z + 3";
  std::string deck = "solver = 'jacobi'\n[grid]\nn = [10, 8, 12]\nlength = [1.0, 0.8, 1.2]\n[poisson]\ntolerance = 1e-11\n"
                     "check_every = 25\nrhs = '2'\n[poisson.boundary]\n";
  for (const char* face : {"x_low", "x_high", "y_low", "y_high", "z_low", "z_high"}) deck += std::string(face) + " = '" + u + "'\n";
  const auto c = gridflow::testing::poisson_config(deck);
  const auto r = gridflow::testing::solve_gathered<double>(c, MPI_COMM_SELF);
  ASSERT_TRUE(r.report.converged);
  EXPECT_LE(r.report.relative_residual, 1e-11);
  EXPECT_LT(gridflow::testing::max_error(r.u, c.grid, [](double x, double y, double z) { return x * x + y * z + 3; }), 1e-9);
  ASSERT_FALSE(r.report.history.empty());
  for (std::size_t i = 1; i < r.report.history.size(); ++i)
    EXPECT_LT(r.report.history[i].relative_residual, r.report.history[i - 1].relative_residual);
}
