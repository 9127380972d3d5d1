#pragma once
// Everything a heat run tunes on-line, in order: the device, for a small grid that device = "auto"
// has put on the GPU (device_tuning.hpp); then, on the device chosen, the CUDA launch shape and,
// on several ranks, the ghost width (heat_tuning.hpp). All of it takes real steps of the run
// and changes no bit of the result.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "autotune/report.hpp"
#include "solver/device_tuning.hpp"
#include "solver/heat_tuning.hpp"

namespace gridflow::solver {

template <class T>
struct TunedHeatRun {
  std::unique_ptr<HeatSolver<T>> solver;     ///< on the chosen device, holding the run's state
  std::optional<DeviceTuningResult> device;  ///< the device choice, when the device was tuned
  HeatTuningResult kernel;                   ///< launch shape and ghost width on that device

  std::int64_t steps_taken() const { return (device ? device->choice.steps_taken : 0) + kernel.steps_taken; }
  std::string text() const;
  autotune::ReportAttributes attributes() const;
};

/// Tunes the run that `solver` (fields with ghost_width.capacity() ghost layers, in the memory space
/// place_run chose) has started. When the device is tuned, a second solver on host fields (halo
/// over MPI) joins for the choice, and whichever holds the state at the end is returned. The
/// device choice may take half of `max_steps` (nullopt: no limit, as gridflow tune), the rest
/// what is left. `remeasure`: ignore cache entries and store new measurements. Collective over the
/// decomposition's communicator.
template <class T>
TunedHeatRun<T> tune_heat_run(std::unique_ptr<HeatSolver<T>> solver, const HeatConfig& config,
                              const mesh::Decomposition<2>& decomposition, const GhostWidthPlan& ghost_width,
                              std::optional<std::int64_t> max_steps, bool remeasure = false);

extern template struct TunedHeatRun<float>;
extern template struct TunedHeatRun<double>;

}  // namespace gridflow::solver
