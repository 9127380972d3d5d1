#include "solver/heat_tuning.hpp"

#include <algorithm>

#include "solver/exchange_widths.hpp"
#include "solver/kernel_spaces.hpp"
#include "solver/online_tuning.hpp"

namespace gridflow::solver {

std::vector<int> heat_exchange_widths(const RunOptions& run, const mesh::Decomposition<2>& decomposition) {
  return exchange_widths(run, decomposition);
}

bool heat_transport_is_tuned(const RunOptions& run, mesh::MemorySpace space, halo::Transport resolved, int ranks) {
  return space == mesh::MemorySpace::device && ranks > 1 && run.halo_transport == "auto" &&
         resolved == halo::Transport::nccl;
}

autotune::SearchSpace heat_space(mesh::MemorySpace space, const std::vector<int>& widths, int default_width,
                                 bool tunes_transport, halo::Transport transport) {
  autotune::SearchSpace s = space == mesh::MemorySpace::device ? heat_cuda_space() : autotune::SearchSpace{};
  add_exchange_width(s, widths, default_width);
  if (tunes_transport) s.add(autotune::Parameter::boolean("nccl", transport == halo::Transport::nccl));
  return s;
}

std::string heat_kernel_label(mesh::MemorySpace space, bool tunes_width, const mesh::Decomposition<2>& decomposition,
                              bool tunes_transport) {
  std::string label = space == mesh::MemorySpace::device ? "heat2d:cuda" : "heat2d:host";
  if (tunes_width) label += exchange_width_label(decomposition);
  if (tunes_transport) label += ":transport";
  return label;
}

template <class T>
HeatTuningResult tune_heat(HeatSolver<T>& solver, const HeatConfig& config, const mesh::Decomposition<2>& decomposition,
                           mesh::MemorySpace space, StreamHandle stream, const std::vector<int>& widths,
                           std::optional<std::int64_t> max_steps, bool remeasure) {
  const bool transports = heat_transport_is_tuned(config.run, space, solver.transport(), decomposition.size());
  const autotune::SearchSpace search_space = heat_space(space, widths, config.run.halo_width, transports, solver.transport());
  const std::string kernel = heat_kernel_label(space, widths.size() >= 2, decomposition, transports);
  if (search_space.parameters().empty())
    return {kernel,
            nothing_to_tune(config.run.tuning.mode == TuningMode::off && !remeasure,
                            "the host heat kernel has no launch parameters, and the ghost width is tuned only on "
                            "several ranks with halo.width left unset")};
  OnlineTuning setup;
  setup.request = tuning_request(config.run, kernel, space, decomposition.owned(), remeasure);
  setup.space = space;
  setup.stream = stream;
  setup.comm = decomposition.comm();
  setup.max_steps = max_steps;
  // Runs of whole exchange cycles of every candidate width time every width fairly.
  setup.run_multiple = widths.empty() ? 1 : *std::max_element(widths.begin(), widths.end());
  SolverSteps steps(solver, heat_cuda_params);
  return tune_online(steps, search_space, setup);
}

template HeatTuningResult tune_heat<float>(HeatSolver<float>&, const HeatConfig&, const mesh::Decomposition<2>&,
                                           mesh::MemorySpace, StreamHandle, const std::vector<int>&,
                                           std::optional<std::int64_t>, bool);
template HeatTuningResult tune_heat<double>(HeatSolver<double>&, const HeatConfig&, const mesh::Decomposition<2>&,
                                            mesh::MemorySpace, StreamHandle, const std::vector<int>&,
                                            std::optional<std::int64_t>, bool);

}  // namespace gridflow::solver
