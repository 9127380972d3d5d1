// The heat scheme against exact solutions: second-order convergence for a decaying sine mode,
// and exact reproduction (to rounding) of a quadratic solution with time-dependent boundaries.
#include <gtest/gtest.h>

#include <cmath>

#include "heat_test_support.hpp"

namespace {

double max_error_sine_mode(long n) {
  const double a = 0.5, t_end = 0.02;
  const auto config = gridflow::testing::heat_config(
      "[grid]\nn = [" + std::to_string(n) + ", " + std::to_string(n) + "]\n[heat]\na = 0.5\nt_end = 0.02\n"
      "initial = 'sin(pi*x) * sin(pi*y)'\n");
  const auto u = gridflow::testing::run_heat_gathered<double>(config, MPI_COMM_SELF);
  double err = 0;
  const double h = 1.0 / static_cast<double>(n), decay = std::exp(-2 * M_PI * M_PI * a * t_end);
  for (long j = 0; j <= n; ++j)
    for (long i = 0; i <= n; ++i)
      err = std::max(err, std::abs(u[j * (n + 1) + i] - std::sin(M_PI * i * h) * std::sin(M_PI * j * h) * decay));
  return err;
}

}  // namespace

TEST(HeatAnalytic, SecondOrderConvergenceWithDtProportionalToHSquared) {
  const double e1 = max_error_sine_mode(32), e2 = max_error_sine_mode(64), e3 = max_error_sine_mode(128);
  const double order1 = std::log2(e1 / e2), order2 = std::log2(e2 / e3);
  RecordProperty("errors", std::to_string(e1) + " " + std::to_string(e2) + " " + std::to_string(e3));
  EXPECT_NEAR(order1, 2.0, 0.15) << "errors " << e1 << ", " << e2 << ", " << e3;
  EXPECT_NEAR(order2, 2.0, 0.15) << "errors " << e1 << ", " << e2 << ", " << e3;
  EXPECT_LT(e3, 1e-4);
}

TEST(HeatAnalytic, QuadraticSolutionWithMovingBoundariesIsExactToRounding) {
  // u = x^2 + y^2 + 4 a t satisfies the heat equation and the 5-point scheme exactly.
  const std::string u = "x^2 + y^2 + 4*a*t";
  const auto config = gridflow::testing::heat_config(
      "[grid]\nn = [40, 24]\nlength = [2.0, 1.5]\norigin = [-1.0, 0.25]\n[heat]\na = 0.7\nsteps = 300\n"
      "initial = 'x^2 + y^2'\n[heat.boundary]\nleft = '" + u + "'\nright = '" + u + "'\nbottom = '" + u + "'\ntop = '" + u + "'\n");
  const auto v = gridflow::testing::run_heat_gathered<double>(config, MPI_COMM_SELF);
  const double t = 300 * config.dt;
  ASSERT_GT(4 * 0.7 * t, 0.1) << "the boundary values must move noticeably";
  double err = 0;
  for (long j = 0; j <= 24; ++j)
    for (long i = 0; i <= 40; ++i) {
      const double x = -1.0 + i * 0.05, y = 0.25 + j * 0.0625;
      err = std::max(err, std::abs(v[j * 41 + i] - (x * x + y * y + 4 * 0.7 * t)));
    }
  EXPECT_LT(err, 1e-12);
}

TEST(HeatAnalytic, FloatRunTracksDoubleRun) {
  const std::string deck = "[grid]\nn = [64, 64]\n[heat]\nsteps = 200\ninitial = 'sin(pi*x) * sin(2*pi*y)'\n";
  const auto d = gridflow::testing::run_heat_gathered<double>(gridflow::testing::heat_config(deck), MPI_COMM_SELF);
  const auto f = gridflow::testing::run_heat_gathered<float>(gridflow::testing::heat_config(deck, {"precision=float"}),
                                                             MPI_COMM_SELF);
  double err = 0;
  for (std::size_t k = 0; k < d.size(); ++k) err = std::max(err, std::abs(d[k] - static_cast<double>(f[k])));
  EXPECT_LT(err, 1e-5);
  EXPECT_GT(err, 0.0) << "float and double runs cannot agree bitwise";
}
