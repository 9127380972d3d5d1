#pragma once
// On-line tuning of the Jacobi solver: the first sweeps of the real solve are the measurements.
// Candidates: the CUDA launch shape and the sweeps per launch (temporal blocking) on device
// fields; on several ranks, unless the deck sets
// halo.width, the ghost width (sweeps per exchange); on several GPUs with halo.transport =
// "auto" resolved to NCCL, the halo transport (NCCL or host-staged MPI). Measured runs are whole multiples of
// poisson.check_every sweeps and start on a check boundary, so every run holds the same residual
// checks at the same places: every candidate is timed on the same mix of plain and checking
// sweeps, and the checks stay on the sweeps an untuned solve checks (jacobi_iteration.hpp).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "autotune/search_space.hpp"
#include "mesh/decomposition.hpp"
#include "solver/ghost_width_plan.hpp"
#include "solver/jacobi_iteration.hpp"
#include "autotune/online_tuning.hpp"
#include "solver/poisson3d_config.hpp"

namespace gridflow::solver {

/// The ghost widths of a Jacobi solve: plan_ghost_width with candidates up to poisson.check_every
/// (a cycle never crosses a check). The PoissonProblem's fields need its capacity() ghost layers.
/// Collective.
GhostWidthPlan plan_jacobi_ghost_width(const PoissonConfig& config, const mesh::Decomposition<3>& decomposition);

/// The most sweeps one launch of the solve may take (the tuner's largest fused_steps):
/// poisson.check_every - 1 (the checking sweep goes alone), at most the fused kernel's 8, and on
/// several ranks with a fixed ghost width at most that width; 1 when nothing can be fused.
int jacobi_max_fused_sweeps(const PoissonConfig& config, const mesh::Decomposition<3>& decomposition,
                            const GhostWidthPlan& ghost_width);

/// The CUDA launch shape for device fields (values of `value_bytes`) with fused_steps up to
/// `max_fused_sweeps` (jacobi_max_fused_sweeps; none above 1: the single sweep only), "ghost_width"
/// over the plan's candidates when it has them (default: the requested width; fused_steps at most
/// ghost_width), and "nccl" (default `transport`) when `tunes_transport`. May have no parameter.
autotune::SearchSpace jacobi_space(mesh::MemorySpace space, std::size_t value_bytes, const GhostWidthPlan& ghost_width,
                                   bool tunes_transport = false, halo::Transport transport = halo::Transport::mpi,
                                   int max_fused_sweeps = 1);

/// "jacobi3d:cuda", "jacobi3d:host", with ":ghost_width/<dims>" when the ghost width is tuned
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

/// Tunes `iteration` (at a check boundary, usually sweep 0; its fields with ghost_width.capacity()
/// ghost layers) for the rest of the solve and leaves it set to the choice. Takes at most
/// `max_sweeps` sweeps (nullopt: as many as the search needs, as gridflow tune), and none past the end of the solve.
/// Collective. `remeasure`: ignore a cache entry and store the new measurement.
template <class T>
autotune::OnlineTuningResult tune_jacobi(JacobiIteration<T>& iteration, const PoissonContext& context,
                               const GhostWidthPlan& ghost_width, std::optional<std::int64_t> max_sweeps,
                               bool remeasure = false);

}  // namespace gridflow::solver
