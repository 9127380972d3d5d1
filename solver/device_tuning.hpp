#pragma once
// The device of a small heat run, chosen on-line: when device = "auto" has put the run on the GPU
// and no rank owns more than device_tuning_max_points points, the run's first steps are taken on
// the GPU and on the CPU (Kokkos host) in turn, the state handed over between a solver on each,
// and the faster device takes the rest of the run. Like every on-line tuning (online_tuning.hpp)
// the measurements are real steps, all ranks take them together, and the slowest rank's time
// decides, so every rank ends on the same device.
//
// The choice changes no bit: the rounding bound between a device-tuned run and an untuned run on
// either device is 0. The CUDA kernel and the host kernel compute every point with one point
// function (heat_point) without FMA contraction (-ffp-contract=off, --fmad=false), the boundary
// values are evaluated on the host for both, and a hand-over copies the fields whole. The tests
// compare device-tuned runs with untuned GPU and CPU runs bitwise.
#include <cstdint>
#include <optional>
#include <string>

#include "autotune/report.hpp"
#include "autotune/search_space.hpp"
#include "mesh/decomposition.hpp"
#include "solver/heat2d_config.hpp"
#include "solver/heat_solver.hpp"
#include "autotune/online_tuning.hpp"

namespace gridflow::solver {

/// The most points a rank may own for its device to be tuned. A GPU step has a fixed cost of a
/// few kernel launches (about 10 us), which a CPU sweeping a few thousand points from its caches
/// undercuts; at 512^2 points (2 MiB per field in double, past a core's caches) the GPU's
/// bandwidth puts it an order of magnitude ahead, and measuring the CPU would only cost time.
constexpr std::int64_t device_tuning_max_points = 512 * 512;

/// Whether a run's device is tuned: device = "auto" has put it on the GPU (`space` is device
/// memory), tuning is on (tuning.mode is not "off", or `remeasure`), halo.transport is not
/// "nccl" (which the CPU cannot use), and the rank owning the most points owns at most
/// device_tuning_max_points. With device = "cpu" or "gpu" the device never changes.
bool device_is_tuned(const RunOptions& run, mesh::MemorySpace space, std::int64_t largest_owned_points,
                     bool remeasure);

/// device_is_tuned with the largest owned box of the decomposition's ranks: the same answer on
/// every rank. Collective.
bool device_is_tuned(const RunOptions& run, mesh::MemorySpace space, const mesh::Decomposition<2>& decomposition,
                     bool remeasure);

/// One parameter, "gpu": 1 (the default, what device = "auto" runs untuned) or 0 (the CPU).
autotune::SearchSpace device_space();

/// "heat2d:device", with "/<px>x<py>" on several ranks: how fast the CPU is depends on how many
/// ranks share a node's cores.
std::string device_kernel_label(const mesh::Decomposition<2>& decomposition);

struct DeviceTuningResult {
  autotune::OnlineTuningResult choice;  ///< the "gpu" choice; its steps were taken on both devices
  bool cpu_chosen = false;    ///< the CPU's solver holds the state and takes the rest

  /// The choice's attributes named "autotune.device.*", beside the kernel tuning's "autotune.*".
  autotune::ReportAttributes attributes() const;
};

/// Chooses between `gpu` and `cpu`, two solvers of one run (same configuration, decomposition and
/// ghost capacity; on device and host fields in a run, any two in a test), of which `gpu` holds
/// the run's state; on return the chosen one holds it. Measures on the run's next steps, at most
/// `max_steps` of them (nullopt: as many as the choice needs), unless the cache has the choice.
/// `remeasure`: ignore a cache entry and store the new measurement. Collective.
template <class T>
DeviceTuningResult tune_heat_device(HeatSolver<T>& gpu, HeatSolver<T>& cpu, const HeatConfig& config,
                                    const mesh::Decomposition<2>& decomposition,
                                    std::optional<std::int64_t> max_steps, bool remeasure = false);

}  // namespace gridflow::solver
