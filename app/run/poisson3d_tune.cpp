#include "app/deck/diagnostics_deck.hpp"
#include "app/run/poisson3d_tune.hpp"

#include "app/deck/poisson3d_deck.hpp"

#include <cstdio>
#include <limits>
#include <optional>

#include "halo/transport.hpp"
#include "mesh/decomposition.hpp"
#include "solver/jacobi_iteration.hpp"
#include "solver/jacobi_tuning.hpp"
#include "solver/poisson3d_config.hpp"
#include "solver/poisson_problem.hpp"
#include "app/run/run_setup.hpp"

namespace gridflow::app {

namespace {

template <class T>
void tune(const solver::PoissonConfig& config, const RunPlacement<3>& place) {
  const auto& d = place.decomposition;
  const solver::GhostWidthPlan ghost_width = solver::plan_jacobi_ghost_width(config, d);
  std::optional<mesh::Stream> stream_owner;
  if (place.space == mesh::MemorySpace::device) stream_owner.emplace();
  const StreamHandle stream = stream_owner ? stream_owner->get() : nullptr;
  solver::PoissonProblem<T> problem(config, d, place.space, stream, ghost_width.capacity());
  const solver::PoissonContext context{config, d, place.space, stream, place.transport};
  // ||b|| = 0 (u = 0 solves it) only scales the residual, which nothing here reads.
  const double b_norm = problem.b_norm() > 0 ? problem.b_norm() : 1.0;
  solver::JacobiIteration<T> iteration(context, problem.u(), problem.f(), b_norm, {}, solver::default_jacobi_tunables(context));
  const auto result = solver::tune_jacobi(iteration, context, ghost_width, std::nullopt, /*remeasure=*/true);
  if (d.rank() != 0) return;
  std::printf("%s", autotune::offline_tuning_text(result, config.run.tuning).c_str());
  std::fflush(stdout);
}

}  // namespace

void tune_poisson3d(Deck& deck, MPI_Comm comm) {
  solver::PoissonConfig config = read_poisson_config(deck);
  read_diagnostics(deck, {"u"});  // checked like a run's: one deck serves both
  deck.require_all_used();
  if (config.solver != "jacobi") {
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    if (rank == 0) {
      std::printf("gridflow tune: nothing to tune for solver = \"%s\" yet (only \"jacobi\" tunes)\n",
                  config.solver.c_str());
    }
    return;
  }
  // Tuning is what was asked for, whatever tuning.mode says for runs; the sweeps serve the
  // measurements only, so the solve must not end under them.
  config.run.tuning.mode = autotune::TuningMode::online;
  config.tolerance = -1;  // no residual is below it
  config.max_iterations = std::numeric_limits<std::int64_t>::max();
  const auto place = place_run(config.run, config.grid, comm);
  kernels::core::dispatch(config.run.precision, [&](auto zero) {
    using T = decltype(zero);
    tune<T>(config, place);
  });
}

}  // namespace gridflow::app
