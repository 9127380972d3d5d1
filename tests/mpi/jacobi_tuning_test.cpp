// On-line tuning of the Jacobi solver on host fields: on several ranks the first sweeps of the
// solve tune the exchange width, and the solve keeps the iterates, residual history and iteration
// count of an untuned one bitwise, checks included (check_every = 7 cuts width-4 cycles short at
// every check, and leaves width 8 untried); a cached run takes the stored width without
// measuring; a solve that converges or ends inside the tuning stops exactly where the untuned
// one does.
#include "solver/jacobi_tuning.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <filesystem>
#include <string>

#include "jacobi_tuning_test_support.hpp"
#include "mpi_test_support.hpp"

namespace {

// A smooth right-hand side converges at about the rate jacobi_slowest_sweeps assumes, well after
// the tuning's half of it. max_iterations only cuts a broken solve short.
const std::string deck =
    "solver = 'jacobi'\n[grid]\nn = [32, 28, 24]\nlength = [1.0, 0.9, 0.8]\n"
    "[poisson]\ncheck_every = 7\nmax_iterations = 5000\nrhs = '1 + x*y - z'\n"
    "[poisson.boundary]\nx_low = 'y'\nz_high = 'x*y + 1'\n";

template <class T>
std::string precision_key() {
  return sizeof(T) == 4 ? "precision=float" : "precision=double";
}

template <class T>
class JacobiTuning : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(JacobiTuning, Precisions);

}  // namespace

TYPED_TEST(JacobiTuning, OnlineTuningLeavesTheSolveBitwiseUnchanged) {
  using T = TypeParam;
  using gridflow::testing::poisson_config;
  using gridflow::testing::solve_differences;
  using gridflow::testing::solve_jacobi_tuned;
  const gridflow::testing::ScratchCache cache("jacobi_tuning_online", MPI_COMM_WORLD);
  const std::string p = precision_key<T>();
  const std::string tolerance = sizeof(T) == 4 ? "poisson.tolerance=1e-4" : "poisson.tolerance=1e-7";
  const auto untuned =
      solve_jacobi_tuned<T>(poisson_config(deck, {p, tolerance, "tuning.mode=off", cache.key()}), MPI_COMM_WORLD);
  ASSERT_TRUE(untuned.tuning);
  EXPECT_FALSE(untuned.tuning->outcome.report);
  EXPECT_EQ(untuned.tuning->steps_taken, 0);
  ASSERT_TRUE(untuned.solve.report.converged);
  // The same as the solver without any tuning set up, as every other test drives it.
  const auto plain = gridflow::testing::solve_gathered<T>(poisson_config(deck, {p, tolerance}), MPI_COMM_WORLD);
  EXPECT_EQ(solve_differences(plain, untuned.solve), 0u);

  const auto config = poisson_config(deck, {p, tolerance, "tuning.mode=online", "tuning.repeats=1", cache.key()});
  const auto tuned = solve_jacobi_tuned<T>(config, MPI_COMM_WORLD);
  EXPECT_EQ(solve_differences(tuned.solve, untuned.solve), 0u);
  ASSERT_TRUE(tuned.tuning);
  const auto& tuning = *tuned.tuning;
  EXPECT_LE(tuning.steps_taken, gridflow::solver::jacobi_tuning_sweeps(config));
  EXPECT_EQ(tuning.steps_taken % 7, 0) << "measured runs are whole check intervals";
  if (gridflow::testing::world_size() == 1) {
    EXPECT_FALSE(tuning.outcome.report) << "one host rank has nothing to tune";
    EXPECT_EQ(tuning.steps_taken, 0);
  } else {
    ASSERT_TRUE(tuning.outcome.report) << tuning.text();
    const auto& report = *tuning.outcome.report;
    EXPECT_FALSE(report.from_cache);
    EXPECT_GE(report.evaluations, 2u) << report.to_text();
    EXPECT_GT(tuning.steps_taken, 0);
    EXPECT_TRUE(report.chosen.has("ghost_width"));
    EXPECT_EQ(tuning.kernel.rfind("jacobi3d:host:ghost_width/", 0), 0u) << tuning.kernel;
  }

  // Cached: the stored width again, nothing measured, the same bits.
  const auto cached =
      solve_jacobi_tuned<T>(poisson_config(deck, {p, tolerance, "tuning.mode=cached", cache.key()}), MPI_COMM_WORLD);
  EXPECT_EQ(solve_differences(cached.solve, untuned.solve), 0u);
  ASSERT_TRUE(cached.tuning);
  EXPECT_EQ(cached.tuning->steps_taken, 0);
  if (gridflow::testing::world_size() > 1) {
    ASSERT_TRUE(cached.tuning->outcome.report) << cached.tuning->text();
    EXPECT_TRUE(cached.tuning->outcome.report->from_cache);
    EXPECT_EQ(cached.tuning->outcome.chosen, tuning.outcome.chosen);
  }

  // An explicit halo.width is the user's choice: not tuned.
  const auto fixed =
      solve_jacobi_tuned<T>(poisson_config(deck, {p, tolerance, "halo.width=2", cache.key()}), MPI_COMM_WORLD);
  EXPECT_FALSE(fixed.tuning->outcome.report);
  EXPECT_EQ(solve_differences(fixed.solve, untuned.solve), 0u);
}

TEST(JacobiTuning, ASolveThatConvergesInsideTheTuningStopsWhereTheUntunedOneDoes) {
  using gridflow::testing::poisson_config;
  // f is an eigenvector of the Jacobi iteration with eigenvalue 0 (half the highest frequency
  // along every axis): one sweep solves the system, far sooner than the slowest mode would.
  const std::string eigenmode =
      "solver = 'jacobi'\n[grid]\nn = [24, 20, 18]\n[poisson]\ncheck_every = 7\ntolerance = 1e-10\n"
      "rhs = 'sin(12*pi*x) * sin(10*pi*y) * sin(9*pi*z)'\n";
  const gridflow::testing::ScratchCache cache("jacobi_tuning_converged", MPI_COMM_WORLD);
  const auto untuned = gridflow::testing::solve_jacobi_tuned<double>(
      poisson_config(eigenmode, {"tuning.mode=off", cache.key()}), MPI_COMM_WORLD);
  ASSERT_TRUE(untuned.solve.report.converged);
  ASSERT_EQ(untuned.solve.report.iterations, 7);
  const auto tuned =
      gridflow::testing::solve_jacobi_tuned<double>(poisson_config(eigenmode, {cache.key()}), MPI_COMM_WORLD);
  EXPECT_EQ(gridflow::testing::solve_differences(tuned.solve, untuned.solve), 0u);
  ASSERT_TRUE(tuned.tuning);
  EXPECT_FALSE(tuned.tuning->outcome.report);
  if (gridflow::testing::world_size() > 1) {
    EXPECT_NE(tuned.tuning->outcome.note.find("ended after 7 steps"), std::string::npos) << tuned.tuning->text();
    EXPECT_EQ(tuned.tuning->steps_taken, 7);
    EXPECT_FALSE(std::filesystem::exists(cache.path())) << "an interrupted tuning stores nothing";
  }
}

TEST(JacobiTuning, ASolveTooShortToTuneTakesTheDefaultsAndNoExtraSweep) {
  using gridflow::testing::poisson_config;
  const gridflow::testing::ScratchCache cache("jacobi_tuning_short", MPI_COMM_WORLD);
  // 30 sweeps leave the tuning 15: one probe of 7 and one measured run at most, too few to compare.
  const auto config = poisson_config(deck, {"poisson.max_iterations=30", cache.key()});
  ASSERT_EQ(gridflow::solver::jacobi_tuning_sweeps(config), 15);
  const auto tuned = gridflow::testing::solve_jacobi_tuned<double>(config, MPI_COMM_WORLD);
  const auto untuned = gridflow::testing::solve_jacobi_tuned<double>(
      poisson_config(deck, {"poisson.max_iterations=30", "tuning.mode=off", cache.key()}), MPI_COMM_WORLD);
  EXPECT_EQ(gridflow::testing::solve_differences(tuned.solve, untuned.solve), 0u);
  EXPECT_EQ(tuned.solve.report.iterations, 30);
  EXPECT_FALSE(tuned.solve.report.converged);
  ASSERT_TRUE(tuned.tuning);
  EXPECT_FALSE(tuned.tuning->outcome.report);
  EXPECT_LE(tuned.tuning->steps_taken, 15);
  if (gridflow::testing::world_size() > 1) {
    EXPECT_NE(tuned.tuning->outcome.note.find("too short"), std::string::npos) << tuned.tuning->text();
  }
}

TEST(JacobiTuning, TheSlowestModeBoundsTheSweepsOfASmoothSolve) {
  using gridflow::testing::poisson_config;
  // Two grid points per axis leave one interior point, which one sweep solves.
  EXPECT_EQ(gridflow::solver::jacobi_slowest_sweeps(poisson_config("solver = 'jacobi'\n[grid]\nn = [2, 2, 2]\n")), 1);
  const auto config = poisson_config(deck, {"poisson.tolerance=1e-7", "tuning.mode=off"});
  const std::int64_t bound = gridflow::solver::jacobi_slowest_sweeps(config);
  const auto solve = gridflow::testing::solve_gathered<double>(config, MPI_COMM_WORLD);
  ASSERT_TRUE(solve.report.converged);
  // The bound holds at the first check past it. A smooth f is mostly the slowest mode, so the
  // solve needs well over the tuning's half of the bound.
  EXPECT_LE(solve.report.iterations, bound + 7);
  EXPECT_GT(solve.report.iterations, 0.6 * static_cast<double>(bound));
  EXPECT_EQ(gridflow::solver::jacobi_tuning_sweeps(config), bound / 2);
}
