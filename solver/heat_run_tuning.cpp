#include "solver/heat_run_tuning.hpp"

namespace gridflow::solver {

template <class T>
std::string TunedHeatRun<T>::text() const {
  return (device ? device->choice.text() : "") + kernel.text();
}

template <class T>
autotune::ReportAttributes TunedHeatRun<T>::attributes() const {
  autotune::ReportAttributes attributes = device ? device->attributes() : autotune::ReportAttributes{};
  for (auto& entry : kernel.attributes()) attributes.push_back(std::move(entry));
  return attributes;
}

template <class T>
TunedHeatRun<T> tune_heat_run(std::unique_ptr<HeatSolver<T>> solver, const HeatConfig& config,
                              const mesh::Decomposition<2>& decomposition, const GhostWidthPlan& ghost_width,
                              std::optional<std::int64_t> max_steps, bool remeasure) {
  TunedHeatRun<T> run;
  if (device_is_tuned(config.run, solver->space(), decomposition, remeasure)) {
    auto cpu = std::make_unique<HeatSolver<T>>(config, decomposition, mesh::MemorySpace::host, nullptr,
                                               halo::Transport::mpi, kernels::stencil::HeatCudaParams{},
                                               solver->ghost_capacity());
    const auto half = max_steps ? std::optional(*max_steps / 2) : std::nullopt;
    run.device = tune_heat_device(*solver, *cpu, config, decomposition, half, remeasure);
    if (run.device->cpu_chosen) solver = std::move(cpu);
    if (max_steps) *max_steps -= run.device->choice.steps_taken;
  }
  run.kernel = tune_heat(*solver, config, decomposition, solver->space(), solver->stream(), ghost_width, max_steps, remeasure);
  run.solver = std::move(solver);
  return run;
}

template struct TunedHeatRun<float>;
template struct TunedHeatRun<double>;
template TunedHeatRun<float> tune_heat_run<float>(std::unique_ptr<HeatSolver<float>>, const HeatConfig&,
                                                  const mesh::Decomposition<2>&, const GhostWidthPlan&,
                                                  std::optional<std::int64_t>, bool);
template TunedHeatRun<double> tune_heat_run<double>(std::unique_ptr<HeatSolver<double>>, const HeatConfig&,
                                                    const mesh::Decomposition<2>&, const GhostWidthPlan&,
                                                    std::optional<std::int64_t>, bool);

}  // namespace gridflow::solver
