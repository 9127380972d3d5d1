#pragma once
// On-line tuning of the heat solver: the measurements are real steps of the run. Each candidate
// (CUDA launch shape on device fields; exchange width on several ranks unless halo.width is set;
// halo transport, NCCL or host-staged MPI, on several GPUs when halo.transport = "auto")
// advances the solution by a whole number of steps, exactly as an untuned run would, and the
// winner takes the rest of the run. online_tuning.hpp says why every candidate gives the same bits.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "autotune/search_space.hpp"
#include "mesh/decomposition.hpp"
#include "solver/heat2d_config.hpp"
#include "solver/heat_solver.hpp"
#include "solver/online_tuning.hpp"

namespace gridflow::solver {

/// The exchange widths worth trying: 1, 2, 4, 8 up to the fewest points a rank owns along an
/// axis, on several ranks, when tuning is on and the deck does not set halo.width; else empty.
/// Collective over the decomposition's communicator.
std::vector<int> heat_exchange_widths(const RunOptions& run, const mesh::Decomposition<2>& decomposition);

/// Whether the halo transport is tuned: device fields on several ranks, halo.transport = "auto",
/// and `resolved` (what "auto" chose) NCCL, so NCCL is built in and every rank has its own GPU.
bool heat_transport_is_tuned(const RunOptions& run, mesh::MemorySpace space, halo::Transport resolved, int ranks);

/// The heat solver's space: the CUDA launch shape for device fields, "ghost_width" over `widths`
/// when there are two or more (default: `default_width`), and "nccl" (1: NCCL, 0: MPI; default
/// `transport`) when `tunes_transport`. May have no parameter.
autotune::SearchSpace heat_space(mesh::MemorySpace space, const std::vector<int>& widths, int default_width,
                                 bool tunes_transport = false, halo::Transport transport = halo::Transport::mpi);

/// "heat2d:cuda", "heat2d:host", with ":ghost_width/<dims>" when the exchange width is tuned and
/// ":transport" when the halo transport is.
std::string heat_kernel_label(mesh::MemorySpace space, bool tunes_width, const mesh::Decomposition<2>& decomposition,
                              bool tunes_transport = false);

using HeatTuningResult = OnlineTuningResult;

/// Tunes `solver` (fields allocated with max(widths) ghost layers) for the rest of the run and
/// leaves it set to the choice. Takes at most `max_steps` steps (nullopt: as many as the search
/// needs, as gridflow tune). Collective over the decomposition's communicator. `remeasure`: ignore
/// a cache entry and store the new measurement.
template <class T>
HeatTuningResult tune_heat(HeatSolver<T>& solver, const HeatConfig& config, const mesh::Decomposition<2>& decomposition,
                           mesh::MemorySpace space, StreamHandle stream, const std::vector<int>& widths,
                           std::optional<std::int64_t> max_steps, bool remeasure = false);

}  // namespace gridflow::solver
