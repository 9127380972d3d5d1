// A Poisson solve taken a few steps at a time (as the application's run loop takes it, stopping
// between steps to report or write) is the solve taken in one call, bitwise: the iterates, the
// iteration count and the residual history; each check is recorded by the step its solver says;
// and iterate() is the iterate that finish() hands back. Every solver, on N ranks.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "jacobi_tuning_test_support.hpp"  // solve_differences
#include "multigrid_test_support.hpp"
#include "solver/poisson_problem.hpp"
#include "solver/poisson_solver.hpp"

namespace {

namespace solver = gridflow::solver;
namespace support = gridflow::testing;
using gridflow::mesh::MemorySpace;

struct SteppedSolve {
  support::PoissonResult<double> result;
  std::vector<double> iterate_before_finish;  ///< iterate() after the last step, gathered
  std::vector<std::int64_t> steps_adding_checks;  ///< step() after each advance() that recorded a check
  bool stepped_past_count = false;
};

SteppedSolve solve_in_chunks(const solver::PoissonConfig& config, std::int64_t chunk) {
  const gridflow::mesh::Decomposition<3> d(config.grid, MPI_COMM_WORLD, {0, 0, 0}, config.run.halo_width);
  solver::PoissonProblem<double> problem(config, d, MemorySpace::host, nullptr, config.run.halo_width);
  const solver::PoissonContext context{config, d, MemorySpace::host, nullptr, gridflow::halo::Transport::mpi};
  const auto poisson = solver::make_poisson_solver<double>(context);
  const auto solve = poisson->start(problem.u(), problem.f(), problem.b_norm(), {});
  SteppedSolve out;
  while (!solve->finished()) {
    const std::size_t checks = solve->history().size();
    const std::int64_t before = solve->step();
    const std::int64_t taken = solve->advance(chunk);
    out.stepped_past_count = out.stepped_past_count || taken > chunk || solve->step() - before != taken;
    if (solve->history().size() > checks) out.steps_adding_checks.push_back(solve->step());
    if (taken == 0) break;
  }
  out.iterate_before_finish = support::gather_owned(solve->iterate(), d.owned(), config.grid.points(), MPI_COMM_WORLD);
  out.result.report = solve->finish();
  out.result.u = support::gather_owned(problem.u(), d.owned(), config.grid.points(), MPI_COMM_WORLD);
  return out;
}

class PoissonSolveSteps : public ::testing::TestWithParam<std::string> {};

}  // namespace

TEST_P(PoissonSolveSteps, ChunkedSolveIsTheOneCallSolveBitwise) {
  const std::string name = GetParam();
  // u = x^2 + y z with spacing 1/16 on every axis (the spectral solver's uniform grid).
  const auto config = support::poisson_config(support::quadratic_deck({16, 12, 20}),
                                              {"solver=" + name, "poisson.tolerance=1e-7", "poisson.check_every=10"});
  const auto whole = support::solve_gathered<double>(config, MPI_COMM_WORLD);
  ASSERT_TRUE(whole.report.converged) << name;
  for (const std::int64_t chunk : {1, 7}) {
    const auto stepped = solve_in_chunks(config, chunk);
    EXPECT_FALSE(stepped.stepped_past_count) << name << ", chunk " << chunk;
    EXPECT_EQ(support::solve_differences(stepped.result, whole), 0u) << name << ", chunk " << chunk;
    EXPECT_EQ(stepped.iterate_before_finish, stepped.result.u) << name << ", chunk " << chunk;
    if (chunk != 1) continue;
    // Stepping one at a time shows which step recorded each check.
    const std::int64_t every = name == "jacobi" ? 10 : 1;
    for (const std::int64_t step : stepped.steps_adding_checks)
      EXPECT_TRUE(step % every == 0 || step == stepped.result.report.iterations) << name << ": a check at step " << step;
  }
}

INSTANTIATE_TEST_SUITE_P(EverySolver, PoissonSolveSteps, ::testing::Values("jacobi", "multigrid", "cg-mg", "spectral"),
                         [](const auto& info) { return info.param == "cg-mg" ? std::string("cg_mg") : info.param; });
