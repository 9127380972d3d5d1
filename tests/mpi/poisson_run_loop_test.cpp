// A Poisson solve under the RunLoop on N ranks: the residual lines come once per check, and an
// observer's stop between cycles leaves in u exactly the iterate of a solve that ends there by
// its own rule (max_iterations), with the same residual history.
#include <gtest/gtest.h>
#include <mpi.h>

#include <sstream>
#include <string>
#include <vector>

#include "app/loop/poisson_stepping.hpp"
#include "app/loop/residual_progress.hpp"
#include "app/loop/run_loop.hpp"
#include "jacobi_tuning_test_support.hpp"  // solve_differences
#include "multigrid_test_support.hpp"
#include "mpi_test_support.hpp"
#include "solver/poisson_problem.hpp"

namespace {

namespace app = gridflow::app;
namespace solver = gridflow::solver;
namespace support = gridflow::testing;
using gridflow::mesh::MemorySpace;

/// Asks to stop once the run reaches `at`.
class StopAt final : public app::Observer<double, 3> {
 public:
  explicit StopAt(std::int64_t at) : m_at(at) {}
  std::string name() const override { return "stop at"; }
  std::int64_t next_step(const app::RunState<double, 3>& s) const override { return s.step < m_at ? m_at : never; }
  void act(const app::RunState<double, 3>&, app::RunControl& control) override { control.request_stop("enough", 7); }

 private:
  std::int64_t m_at;
};

struct LoopRun {
  support::PoissonResult<double> result;
  app::RunOutcome outcome;
  std::vector<std::string> lines;  ///< rank 0's
};

LoopRun run_in_loop(const solver::PoissonConfig& config, std::int64_t stop_at) {
  const gridflow::mesh::Decomposition<3> d(config.grid, MPI_COMM_WORLD, {0, 0, 0}, config.run.halo_width);
  solver::PoissonProblem<double> problem(config, d, MemorySpace::host, nullptr, config.run.halo_width);
  const solver::PoissonContext context{config, d, MemorySpace::host, nullptr, gridflow::halo::Transport::mpi};
  const auto poisson = solver::make_poisson_solver<double>(context);
  app::PoissonStepping<double> stepping(poisson->start(problem.u(), problem.f(), problem.b_norm(), {}), problem.u(), nullptr,
                                        config.max_iterations);
  app::ResidualProgress<double> progress(stepping, poisson->name(), support::world_rank() == 0);
  StopAt stop(stop_at);
  app::RunLoop<double, 3> loop(d);
  loop.add(progress);
  loop.add(stop);
  LoopRun out;
  ::testing::internal::CaptureStdout();
  out.outcome = loop.run(stepping);
  std::istringstream printed(::testing::internal::GetCapturedStdout());
  for (std::string line; std::getline(printed, line);) out.lines.push_back(line);
  out.result.report = stepping.report();
  out.result.u = support::gather_owned(problem.u(), d.owned(), config.grid.points(), MPI_COMM_WORLD);
  return out;
}

}  // namespace

TEST(PoissonRunLoop, AStopBetweenCyclesLeavesTheIterateOfASolveEndingThere) {
  const std::string deck = support::quadratic_deck({16, 12, 20});
  const auto config = support::poisson_config(deck, {"solver=multigrid", "poisson.tolerance=1e-12"});
  const auto stopped = run_in_loop(config, 2);
  EXPECT_EQ(stopped.outcome.step, 2);
  ASSERT_TRUE(stopped.outcome.stop);
  EXPECT_EQ(stopped.outcome.exit_status(), 7);
  EXPECT_FALSE(stopped.result.report.converged);
  EXPECT_EQ(stopped.result.report.iterations, 2);

  const auto two_cycles = support::solve_gathered<double>(
      support::poisson_config(deck, {"solver=multigrid", "poisson.tolerance=1e-12", "poisson.max_iterations=2"}), MPI_COMM_WORLD);
  EXPECT_EQ(support::solve_differences(stopped.result, two_cycles), 0u);

  // One line per check, cycles 0, 1 and 2, in order.
  if (support::world_rank() == 0) {
    ASSERT_EQ(stopped.lines.size(), 3u);
    for (int k = 0; k < 3; ++k)
      EXPECT_EQ(stopped.lines[k].rfind("  multigrid " + std::string(7, ' ') + std::to_string(k) + "  residual ", 0), 0u)
          << stopped.lines[k];
  } else {
    EXPECT_TRUE(stopped.lines.empty());
  }
}

TEST(PoissonRunLoop, JacobiIsReportedAtItsChecksAndItsLastSweep) {
  const auto config = support::poisson_config(support::quadratic_deck({16, 12, 20}),
                                              {"solver=jacobi", "poisson.check_every=10", "poisson.max_iterations=45"});
  const auto run = run_in_loop(config, 1000);
  EXPECT_FALSE(run.outcome.stop);
  EXPECT_EQ(run.outcome.step, 45);
  if (support::world_rank() != 0) return;
  std::vector<std::string> sweeps;
  for (const auto& line : run.lines) sweeps.push_back(line.substr(0, line.find("  residual")));
  EXPECT_EQ(sweeps, (std::vector<std::string>{"  jacobi        9", "  jacobi       19", "  jacobi       29", "  jacobi       39",
                                              "  jacobi       44"}));
}
