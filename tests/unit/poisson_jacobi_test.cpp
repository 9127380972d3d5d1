// The Jacobi solver on manufactured solutions: the discretisation error falls with order 2, and a
// solution the 7-point operator reproduces exactly (with non-zero faces) is reached to the tolerance.
#include <gtest/gtest.h>

#include <cmath>

#include "poisson_test_support.hpp"

namespace {
const std::string sine =
    "solver = 'jacobi'\n[poisson]\ntolerance = 1e-10\ncheck_every = 20\n"
    "rhs = '-14 * pi^2 * sin(pi*x) * sin(2*pi*y) * sin(3*pi*z)'\n";
double sine_exact(double x, double y, double z) { return std::sin(M_PI * x) * std::sin(2 * M_PI * y) * std::sin(3 * M_PI * z); }
}  // namespace

TEST(PoissonJacobi, SecondOrderDiscretisationError) {
  double err[3];
  int q = 0;
  for (int n : {8, 16, 32}) {
    const auto c = gridflow::testing::poisson_config(sine, {"grid.n=[" + std::to_string(n) + "," + std::to_string(n) + "," + std::to_string(n) + "]"});
    const auto r = gridflow::testing::solve_gathered<double>(c, MPI_COMM_SELF);
    ASSERT_TRUE(r.report.converged) << n;
    err[q++] = gridflow::testing::max_error(r.u, c.grid, sine_exact);
  }
  EXPECT_NEAR(std::log2(err[0] / err[1]), 2.0, 0.15) << err[0] << " " << err[1] << " " << err[2];
  EXPECT_NEAR(std::log2(err[1] / err[2]), 2.0, 0.15) << err[0] << " " << err[1] << " " << err[2];
}

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
