#include "solver/heat_tuning.hpp"

#include <algorithm>

#include "solver/exchange_widths.hpp"
#include "solver/kernel_spaces.hpp"
#include "solver/online_tuning.hpp"

namespace gridflow::solver {

std::vector<int> heat_exchange_widths(const RunOptions& run, const mesh::Decomposition<2>& decomposition) {
  return exchange_widths(run, decomposition);
}

autotune::SearchSpace heat_space(mesh::MemorySpace space, const std::vector<int>& widths, int default_width) {
  autotune::SearchSpace s = space == mesh::MemorySpace::device ? heat_cuda_space() : autotune::SearchSpace{};
  add_exchange_width(s, widths, default_width);
  return s;
}

std::string heat_kernel_label(mesh::MemorySpace space, bool tunes_width, const mesh::Decomposition<2>& decomposition) {
  const std::string label = space == mesh::MemorySpace::device ? "heat2d:cuda" : "heat2d:host";
  return tunes_width ? label + exchange_width_label(decomposition) : label;
}

template <class T>
HeatTuningResult tune_heat(HeatSolver<T>& solver, const HeatConfig& config, const mesh::Decomposition<2>& decomposition,
                           mesh::MemorySpace space, StreamHandle stream, const std::vector<int>& widths,
                           std::optional<std::int64_t> max_steps, bool remeasure) {
  const autotune::SearchSpace search_space = heat_space(space, widths, config.run.halo_width);
  const std::string kernel = heat_kernel_label(space, widths.size() >= 2, decomposition);
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
