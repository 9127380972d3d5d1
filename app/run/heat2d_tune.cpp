#include "app/deck/diagnostics_deck.hpp"
#include "app/run/heat2d_tune.hpp"

#include "app/deck/heat2d_deck.hpp"

#include <cstdio>
#include <memory>
#include <optional>

#include "halo/transport.hpp"
#include "mesh/decomposition.hpp"
#include "solver/ghost_width_plan.hpp"
#include "solver/heat2d_config.hpp"
#include "solver/heat_solver.hpp"
#include "solver/heat_run_tuning.hpp"
#include "app/run/run_setup.hpp"

namespace gridflow::app {

namespace {

template <class T>
void tune(const solver::HeatConfig& config, const mesh::Decomposition<2>& decomposition, mesh::MemorySpace space,
          halo::Transport transport) {
  std::optional<mesh::Stream> stream_owner;
  if (space == mesh::MemorySpace::device) stream_owner.emplace();
  const StreamHandle stream = stream_owner ? stream_owner->get() : nullptr;
  const solver::GhostWidthPlan ghost_width = solver::plan_ghost_width(config.run, decomposition);
  auto solver = std::make_unique<solver::HeatSolver<T>>(config, decomposition, space, stream, transport,
                                                kernels::stencil::HeatCudaParams{}, ghost_width.capacity());
  const auto result =
      solver::tune_heat_run(std::move(solver), config, decomposition, ghost_width, std::nullopt, /*remeasure=*/true);
  if (decomposition.rank() != 0) return;
  if (result.device) std::printf("%s", autotune::offline_tuning_text(result.device->choice, config.run.tuning).c_str());
  std::printf("%s", autotune::offline_tuning_text(result.kernel, config.run.tuning).c_str());
  std::fflush(stdout);
}

}  // namespace

void tune_heat2d(Deck& deck, MPI_Comm comm) {
  solver::HeatConfig config = read_heat_config(deck);
  read_diagnostics(deck, {"u"});  // checked like a run's: one deck serves both
  deck.require_all_used();
  // Tuning is what was asked for, whatever tuning.mode says for runs.
  config.run.tuning.mode = autotune::TuningMode::online;
  const auto place = place_run(config.run, config.grid, comm);
  kernels::core::dispatch(config.run.precision, [&](auto zero) {
    using T = decltype(zero);
    tune<T>(config, place.decomposition, place.space, place.transport);
  });
}

}  // namespace gridflow::app
