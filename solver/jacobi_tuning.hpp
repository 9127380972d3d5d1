#pragma once
// On-line tuning of the Jacobi solver: the first sweeps of the real solve are the measurements.
// Candidates: the CUDA launch shape on device fields; on several ranks, unless the deck sets
// halo.width, the exchange width (sweeps per exchange); on several GPUs with halo.transport =
// "auto" resolved to NCCL, the halo transport (NCCL or host-staged MPI). Measured runs are whole multiples of
// poisson.check_every sweeps and start on a check boundary, so every run holds the same residual
// checks at the same places: every candidate is timed on the same mix of plain and checking
// sweeps, and the checks stay on the sweeps an untuned solve checks (jacobi_iteration.hpp).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "autotune/search_space.hpp"
#include "mesh/decomposition.hpp"
#include "solver/jacobi_iteration.hpp"
#include "autotune/online_tuning.hpp"
#include "solver/poisson3d_config.hpp"

namespace gridflow::solver {

/// The exchange widths worth trying: 1, 2, 4, 8 up to the fewest points a rank owns along an axis
/// and up to poisson.check_every (a cycle never crosses a check), on several ranks, when tuning
/// is on and the deck does not set halo.width; else empty. Collective.
std::vector<int> jacobi_exchange_widths(const PoissonConfig& config, const mesh::Decomposition<3>& decomposition);

/// `config` with run.halo_width raised to max(halo.width, widths): the config to build the
/// PoissonProblem from, whose fields then have the ghost layers every width needs. The solver
/// keeps `config`, whose halo.width is the width it sweeps with until tuned.
PoissonConfig with_jacobi_ghosts(const PoissonConfig& config, const std::vector<int>& widths);

/// The CUDA launch shape for device fields (values of `value_bytes`), "ghost_width" over `widths`
/// when there are two or more (default: `default_width`), and "nccl" (default `transport`) when
/// `tunes_transport`. May have no parameter.
autotune::SearchSpace jacobi_space(mesh::MemorySpace space, std::size_t value_bytes, const std::vector<int>& widths,
                                   int default_width, bool tunes_transport = false,
                                   halo::Transport transport = halo::Transport::mpi);

/// "jacobi3d:cuda", "jacobi3d:host", with ":ghost_width/<dims>" when the exchange width is tuned
/// and ":transport" when the halo transport is.
std::string jacobi_kernel_label(mesh::MemorySpace space, bool tunes_width, const mesh::Decomposition<3>& decomposition,
                                bool tunes_transport = false);

/// Sweeps the zero initial guess needs at most (in exact arithmetic) to bring the relative
/// residual under poisson.tolerance: ln(tolerance) / ln(rho), with rho the spectral radius of the
/// Jacobi iteration on this grid, which bounds the residual's shrinking per sweep.
std::int64_t jacobi_slowest_sweeps(const PoissonConfig& config);

/// Sweeps an on-line tuning may take: half of the fewer of poisson.max_iterations and
/// jacobi_slowest_sweeps, so that the winner runs at least half of the solve and a solve that
/// converges faster than the bound rarely ends inside the tuning.
std::int64_t jacobi_tuning_sweeps(const PoissonConfig& config);

/// Tunes `iteration` (at a check boundary, usually sweep 0; its fields built from
/// with_jacobi_ghosts(config, widths)) for the rest of the solve and leaves it set to the choice. Takes at most
/// `max_sweeps` sweeps (nullopt: as many as the search needs, as gridflow tune), and none past the end of the solve.
/// Collective. `remeasure`: ignore a cache entry and store the new measurement.
template <class T>
autotune::OnlineTuningResult tune_jacobi(JacobiIteration<T>& iteration, const PoissonContext& context,
                               const std::vector<int>& widths, std::optional<std::int64_t> max_sweeps,
                               bool remeasure = false);

}  // namespace gridflow::solver
