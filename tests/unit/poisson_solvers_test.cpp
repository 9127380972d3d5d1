// Every Poisson solver on the manufactured solution: each reaches its tolerance, the error falls
// with order 2 over three refinements, and the solvers agree with each other to the tolerance.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>

#include "multigrid_test_support.hpp"

namespace {
const std::string deck =
    "[poisson]\ntolerance = 1e-10\ncheck_every = 20\n"
    "rhs = '-14 * pi^2 * sin(pi*x) * sin(2*pi*y) * sin(3*pi*z)'\n";
double exact(double x, double y, double z) { return std::sin(M_PI * x) * std::sin(2 * M_PI * y) * std::sin(3 * M_PI * z); }
std::string size(int n) { return "grid.n=[" + std::to_string(n) + "," + std::to_string(n) + "," + std::to_string(n) + "]"; }
}  // namespace

TEST(PoissonSolvers, EachConvergesWithSecondOrderError) {
  for (const std::string solver : {"jacobi", "multigrid", "cg-mg", "spectral"}) {
    double err[3];
    int q = 0;
    for (int n : {8, 16, 32}) {
      const auto c = gridflow::testing::poisson_config(deck, {"solver=" + solver, size(n), "multigrid.coarse_points=2"});
      const auto r = gridflow::testing::solve_gathered<double>(c, MPI_COMM_SELF);
      ASSERT_TRUE(r.report.converged) << solver << " at n = " << n;
      EXPECT_LE(r.report.relative_residual, 1e-10) << solver;
      err[q++] = gridflow::testing::max_error(r.u, c.grid, exact);
    }
    EXPECT_NEAR(std::log2(err[0] / err[1]), 2.0, 0.15) << solver << ": " << err[0] << " " << err[1] << " " << err[2];
    EXPECT_NEAR(std::log2(err[1] / err[2]), 2.0, 0.15) << solver << ": " << err[0] << " " << err[1] << " " << err[2];
  }
}

TEST(PoissonSolvers, AgreeWithEachOtherToTheTolerance) {
  // Non-zero faces and a rough right-hand side, on a non-cubic grid.
  std::string d = "[grid]\nn = [16, 12, 20]\nlength = [1.0, 0.75, 1.25]\n[poisson]\ntolerance = 1e-10\ncheck_every = 20\n"
                  "rhs = 'exp(x) * cos(3*y) + z'\n[poisson.boundary]\nx_low = 'y*z'\ny_high = '1 + x'\nz_low = 'sin(x + y)'\n";
  std::map<std::string, std::vector<double>> u;
  for (const std::string solver : {"jacobi", "multigrid", "cg-mg", "spectral"})
    u[solver] = gridflow::testing::solve_gathered<double>(gridflow::testing::poisson_config(d, {"solver=" + solver, "multigrid.coarse_points=2"}),
                                                          MPI_COMM_SELF).u;
  double scale = 0;
  for (double v : u["spectral"]) scale = std::max(scale, std::abs(v));
  for (const std::string solver : {"jacobi", "multigrid", "cg-mg"}) {
    double diff = 0;
    for (std::size_t q = 0; q < u[solver].size(); ++q) diff = std::max(diff, std::abs(u[solver][q] - u["spectral"][q]));
    // A relative residual of 1e-10 bounds the error by about cond(A) x 1e-10 ~ 1e-7 of the scale here.
    EXPECT_LT(diff, 1e-7 * scale) << solver << " against spectral";
  }
}

TEST(PoissonSolvers, StopAtTheFirstResidualThatIsNotFinite) {
  // A NaN in the initial guess makes the first residual NaN: every iterative solver ends there,
  // with that residual last in its history, instead of sweeping on to max_iterations.
  for (const std::string solver : {"jacobi", "multigrid", "cg-mg"}) {
    const auto c = gridflow::testing::poisson_config(deck, {"solver=" + solver, size(16), "multigrid.coarse_points=2",
                                                            "poisson.check_every=1", "poisson.max_iterations=50"});
    const gridflow::mesh::Decomposition<3> d(c.grid, MPI_COMM_SELF, {1, 1, 1}, 1);
    gridflow::solver::PoissonProblem<double> problem(c, d, gridflow::mesh::MemorySpace::host, nullptr, 1);
    problem.u()(5, 7, 9) = std::nan("");
    const gridflow::solver::PoissonContext context{c, d, gridflow::mesh::MemorySpace::host, nullptr,
                                                   gridflow::halo::Transport::mpi};
    auto s = gridflow::solver::make_poisson_solver<double>(context);
    const auto report = s->solve(problem.u(), problem.f(), problem.b_norm(), {});
    ASSERT_FALSE(report.history.empty()) << solver;
    EXPECT_FALSE(std::isfinite(report.history.back().relative_residual)) << solver;
    EXPECT_FALSE(report.converged) << solver;
    // Jacobi and multigrid check before their first sweep or cycle; CG finds it in its first iteration's p.Ap.
    EXPECT_LE(report.history.back().iteration, solver == "cg-mg" ? 1 : 0) << solver;
    EXPECT_LE(report.iterations, 1) << solver;
  }
}

// Red-black Gauss-Seidel V(1,1) cycles with full weighting, trilinear interpolation and the 7-point
// operator rediscretised: local Fourier analysis predicts a residual reduction of about 0.2 a cycle
// in 3D. The default cycle sweeps red then black on both sides of the coarse correction and reaches
// it; the symmetric cycle (black then red after it) ends on red where the next cycle begins, a
// half-sweep that changes nothing, and reduces the residual only about 0.41 a cycle.
TEST(PoissonSolvers, MultigridCycleReducesTheResidualAsFourierAnalysisPredicts) {
  std::map<bool, double> factor;
  for (const bool symmetric : {false, true}) {
    const auto c = gridflow::testing::poisson_config(
        deck, {"solver=multigrid", size(32), "multigrid.full_multigrid=false", "multigrid.mixed_precision=false",
               "multigrid.pre_smooth=1", "multigrid.post_smooth=1", std::string("multigrid.symmetric_cycle=") + (symmetric ? "true" : "false")});
    const auto r = gridflow::testing::solve_gathered<double>(c, MPI_COMM_SELF);
    ASSERT_TRUE(r.report.converged) << "symmetric " << symmetric;
    const auto& h = r.report.history;
    ASSERT_GE(h.size(), 8u);
    // The asymptotic factor: the geometric mean over the cycles after the first four.
    factor[symmetric] = std::pow(h.back().relative_residual / h[4].relative_residual, 1.0 / static_cast<double>(h.size() - 5));
  }
  std::printf("  V(1,1) residual reduction a cycle: %.3f (default), %.3f (symmetric)\n", factor[false], factor[true]);
  EXPECT_LT(factor[false], 0.23) << "the default V(1,1) cycle";
  EXPECT_GT(factor[false], 0.15) << "the default V(1,1) cycle: faster than Fourier analysis allows";
  EXPECT_LT(factor[true], 0.45) << "the symmetric V(1,1) cycle";
  EXPECT_GT(factor[true], 1.5 * factor[false]) << "the symmetric cycle's wasted half-sweep";
}

// CG-multigrid's first step is the multigrid solver's: the full multigrid pass added to u (its
// residual that of the multigrid solve after one step, near the discretisation error); CG goes on
// from there, in no more steps than from a cycle, to the same answer.
TEST(PoissonSolvers, CgMultigridStartsFromTheFullMultigridPass) {
  const auto solve = [](const std::string& solver, bool full) {
    return gridflow::testing::solve_gathered<double>(
        gridflow::testing::poisson_config(deck, {"solver=" + solver, size(32), "poisson.tolerance=1e-8",
                                                 std::string("multigrid.full_multigrid=") + (full ? "true" : "false")}),
        MPI_COMM_SELF);
  };
  std::map<bool, gridflow::testing::PoissonResult<double>> got;
  for (const bool full : {true, false}) got.emplace(full, solve("cg-mg", full));
  const auto multigrid = solve("multigrid", true);
  ASSERT_TRUE(got.at(true).report.converged);
  ASSERT_TRUE(got.at(false).report.converged);
  EXPECT_LE(got.at(true).report.iterations, got.at(false).report.iterations);
  const double first = got.at(true).report.history.at(1).relative_residual;
  EXPECT_NEAR(first, multigrid.report.history.at(1).relative_residual, 1e-12 * first) << "the first step: the full multigrid pass";
  EXPECT_LT(first, 0.2 * got.at(false).report.history.at(1).relative_residual) << "the first step's residual";
  double diff = 0;
  for (std::size_t q = 0; q < got.at(true).u.size(); ++q) diff = std::max(diff, std::abs(got.at(true).u[q] - got.at(false).u[q]));
  EXPECT_LT(diff, 1e-8);
}

// CG with the float cycle on its own fields (CG rounds r as it updates it and reads the float z)
// takes bitwise the iterates of a preconditioner that converts both in passes of their own.
TEST(PoissonSolvers, CgWithARoundedPreconditionerTakesTheSameIterates) {
  const auto c = gridflow::testing::poisson_config(deck, {"solver=cg-mg", "grid.n=[24,20,28]", "poisson.tolerance=1e-10"});
  const auto rounded = gridflow::testing::cg_with_float_multigrid(c, gridflow::mesh::MemorySpace::host, true);
  const auto converted = gridflow::testing::cg_with_float_multigrid(c, gridflow::mesh::MemorySpace::host, false);
  ASSERT_GE(rounded.residuals.size(), 4u);
  EXPECT_LT(rounded.residuals.back(), 1e-10);
  EXPECT_EQ(rounded.residuals, converted.residuals);
  EXPECT_EQ(rounded.u, converted.u);
}
