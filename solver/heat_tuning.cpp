#include "solver/heat_tuning.hpp"

#include <numeric>

#include "autotune/ghost_width_tuning.hpp"
#include "autotune/kernel_spaces.hpp"
#include "autotune/online_tuning.hpp"
#include "solver/deep_halo_steps.hpp"

namespace gridflow::solver {

autotune::SearchSpace heat_space(mesh::MemorySpace space, const HeatSpaceOptions& o) {
  autotune::SearchSpace s =
      space == mesh::MemorySpace::device ? autotune::heat_cuda_space(o.value_bytes, o.max_fused_steps) : autotune::SearchSpace{};
  autotune::add_ghost_width(s, o.ghost_width.candidates, o.ghost_width.requested);
  if (space == mesh::MemorySpace::device && o.ghost_width.tuned())
    s.require("fused_steps <= ghost_width (ghosts stay valid for that many steps)",
              [](const autotune::Configuration& c) { return c.at("fused_steps") <= c.at("ghost_width"); });
  autotune::add_halo_transport(s, o.tunes_transport, o.transport);
  return s;
}

int heat_max_fused_steps(const mesh::Decomposition<2>& decomposition, const GhostWidthPlan& ghost_width) {
  if (decomposition.size() > 1 && !ghost_width.tuned()) return ghost_width.requested;
  return kernels::stencil::HeatCudaParams::max_streamed_steps;
}

std::string heat_kernel_label(mesh::MemorySpace space, bool tunes_width, const mesh::Decomposition<2>& decomposition,
                              bool tunes_transport) {
  return autotune::deep_halo_kernel_label(space == mesh::MemorySpace::device ? "heat2d:cuda" : "heat2d:host", tunes_width,
                                decomposition, tunes_transport);
}

template <class T>
HeatTuningResult tune_heat(HeatSolver<T>& solver, const HeatConfig& config, const mesh::Decomposition<2>& decomposition,
                           mesh::MemorySpace space, StreamHandle stream, const GhostWidthPlan& ghost_width,
                           std::optional<std::int64_t> max_steps, bool remeasure) {
  const bool transports = autotune::halo_transport_is_tuned(config.run.halo_transport, space, solver.transport(), decomposition.size());
  HeatSpaceOptions options;
  options.value_bytes = sizeof(T);
  options.ghost_width = ghost_width;
  options.max_fused_steps = heat_max_fused_steps(decomposition, ghost_width);
  options.tunes_transport = transports;
  options.transport = solver.transport();
  const autotune::SearchSpace search_space = heat_space(space, options);
  const std::string kernel = heat_kernel_label(space, ghost_width.tuned(), decomposition, transports);
  if (search_space.parameters().empty())
    return {kernel,
            autotune::nothing_to_tune(config.run.tuning.mode == autotune::TuningMode::off && !remeasure,
                            "the host heat kernel has no launch parameters, and the ghost width is tuned only on "
                            "several ranks with halo.width left unset")};
  autotune::OnlineTuning setup;
  setup.request = autotune::tuning_request(config.run.tuning, config.run.precision, kernel, space, decomposition.owned(), remeasure);
  setup.space = space;
  setup.stream = stream;
  setup.comm = decomposition.comm();
  setup.max_steps = max_steps;
  // A candidate's runs are whole exchange cycles of its width and whole fused launches of its
  // depth, which times it fairly (a 2-step run would time 8 fused steps as 2), and no longer: with
  // runs of whole launches of the deepest candidate, 16384^2 float took 16-step runs, 1921 of
  // 2000 steps to tune (H200). run_multiple, a multiple of every candidate's, sizes the search.
  const auto multiple_of = [](const autotune::Configuration& c) -> std::int64_t {
    return std::lcm(c.has("ghost_width") ? c.at("ghost_width") : 1, c.has("fused_steps") ? c.at("fused_steps") : 1);
  };
  std::int64_t every = 1;
  for (const auto& p : search_space.parameters())
    if (p.name == "ghost_width" || p.name == "fused_steps")
      for (const int v : p.values) every = std::lcm(every, static_cast<std::int64_t>(v));
  setup.run_multiple = every;
  setup.candidate_multiple = multiple_of;
  DeepHaloSteps steps(solver, autotune::heat_cuda_params);
  return autotune::tune_online(steps, search_space, setup);
}

template HeatTuningResult tune_heat<float>(HeatSolver<float>&, const HeatConfig&, const mesh::Decomposition<2>&,
                                           mesh::MemorySpace, StreamHandle, const GhostWidthPlan&,
                                           std::optional<std::int64_t>, bool);
template HeatTuningResult tune_heat<double>(HeatSolver<double>&, const HeatConfig&, const mesh::Decomposition<2>&,
                                            mesh::MemorySpace, StreamHandle, const GhostWidthPlan&,
                                            std::optional<std::int64_t>, bool);

}  // namespace gridflow::solver
