#pragma once
// On-line tuning of the heat solver: the measurements are real steps of the run. Each candidate
// (CUDA launch shape and fused steps on device fields; ghost width on several ranks unless
// halo.width is set; halo transport, NCCL or host-staged MPI, on several GPUs when halo.transport
// = "auto") advances the solution by a whole number of steps, exactly as an untuned run would, and
// the winner takes the rest of the run. online_tuning.hpp says why every candidate gives the same bits.
#include <cstdint>
#include <optional>
#include <string>

#include "autotune/search_space.hpp"
#include "mesh/decomposition.hpp"
#include "solver/ghost_width_plan.hpp"
#include "solver/heat2d_config.hpp"
#include "solver/heat_solver.hpp"
#include "autotune/online_tuning.hpp"
#include "autotune/transport_tuning.hpp"

namespace gridflow::solver {

/// What the heat solver's space holds besides the CUDA launch shape.
struct HeatSpaceOptions {
  std::size_t value_bytes = sizeof(double);  ///< the precision, for the fused tiles' shared memory
  GhostWidthPlan ghost_width;                ///< "ghost_width" over its candidates, when it has them
  /// Cap on fused steps: the fixed ghost width on several ranks. With a tuned width,
  /// fused_steps <= ghost_width is a constraint as well.
  int max_fused_steps = kernels::stencil::HeatCudaParams::max_streamed_steps;
  bool tunes_transport = false;  ///< adds "nccl" (1: NCCL, 0: MPI; default `transport`)
  halo::Transport transport = halo::Transport::mpi;
};

/// The heat solver's space: the CUDA launch shape and fused steps for device fields,
/// "ghost_width" over the widths when there are two or more, and "nccl" when the transport is
/// tuned. May have no parameter.
autotune::SearchSpace heat_space(mesh::MemorySpace space, const HeatSpaceOptions& options);

/// The cap on fused steps (see HeatSpaceOptions): HeatCudaParams::max_streamed_steps, the
/// requested ghost width on several ranks when the width is not tuned. Moving boundary values
/// fuse as well (DirichletBoundary::ring).
int heat_max_fused_steps(const mesh::Decomposition<2>& decomposition, const GhostWidthPlan& ghost_width);

/// "heat2d:cuda", "heat2d:host", with ":ghost_width/<dims>" when the exchange width is tuned and
/// ":transport" when the halo transport is.
std::string heat_kernel_label(mesh::MemorySpace space, bool tunes_width, const mesh::Decomposition<2>& decomposition,
                              bool tunes_transport = false);

using HeatTuningResult = autotune::OnlineTuningResult;

/// Tunes `solver` (fields allocated with ghost_width.capacity() ghost layers) for the rest of the run
/// and leaves it set to the choice. Takes at most `max_steps` steps (nullopt: as many as the search
/// needs, as gridflow tune). Collective over the decomposition's communicator. `remeasure`: ignore
/// a cache entry and store the new measurement.
template <class T>
HeatTuningResult tune_heat(HeatSolver<T>& solver, const HeatConfig& config, const mesh::Decomposition<2>& decomposition,
                           mesh::MemorySpace space, StreamHandle stream, const GhostWidthPlan& ghost_width,
                           std::optional<std::int64_t> max_steps, bool remeasure = false);

}  // namespace gridflow::solver
