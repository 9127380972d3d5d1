#include "solver/poisson3d_config.hpp"

#include <algorithm>

#include "kernels/fft/dst1.hpp"
#include "solver/multigrid_plan.hpp"

namespace gridflow::solver {

int multigrid_levels(const mesh::Grid<3>& grid, std::int64_t coarse_points) {
  return static_cast<int>(plan_multigrid(grid, {1, 1, 1}, coarse_points).size());
}

namespace {
/// The points of every level below the finest together, as a fraction of the finest level's.
double coarse_levels_fraction(const mesh::Grid<3>& grid, std::int64_t coarse_points) {
  const auto plan = plan_multigrid(grid, {1, 1, 1}, coarse_points);
  double sum = 0;
  for (std::size_t l = 1; l < plan.size(); ++l) sum += static_cast<double>(plan[l].grid.points().size());
  return sum / static_cast<double>(grid.points().size());
}
}  // namespace

MemoryNeed poisson_memory_need(const PoissonConfig& config, const mesh::Box<3>& owned, int ranks, int ghost_capacity,
                               mesh::MemorySpace space, bool host_staging) {
  const auto precision = config.run.precision;
  const bool device = space == mesh::MemorySpace::device;
  const double element = precision == kernels::core::Precision::float32 ? 4 : 8;
  const double field = field_bytes(owned, ghost_capacity, precision);
  const double halo = 2 * halo_bytes(owned, ghost_capacity, precision);  // exchange buffers, staging
  double work = 0;   // in `space`, beside u and f
  double staged = 0; // pinned host copies of device buffers
  if (config.solver == "jacobi") {
    work = field;  // the second iterate
  } else if (config.solver == "multigrid" || config.solver == "cg-mg") {
    // Levels have up to 2 ghost layers; each coarser level is an eighth of the one above where
    // every axis is halved (a seventh in all), up to a half where semi-coarsening halves one axis.
    const double level = field_bytes(owned, std::max(ghost_capacity, 2), precision);
    // A second copy of u per level: the Jacobi smoother's, or out-of-place red-black sweeps on one GPU.
    const double scratch = config.multigrid.smoother == "jacobi" || (device && ranks == 1) ? 1 : 0;
    const double coarser = coarse_levels_fraction(config.grid, config.multigrid.coarse_points);
    const double hierarchy = (1 + scratch) * level + (3 + scratch) * level * coarser;  // finest r; coarser u, f, r
    // multigrid: its own u and f on the finest level; cg-mg: those copies and r, p, q, z.
    work = hierarchy + (config.solver == "multigrid" ? 2 : 6) * level;
    // Mixed precision (double runs): the cycles' own float hierarchy and its finest correction
    // and residual, at half the bytes of a double level.
    if (precision == kernels::core::Precision::float64 && config.multigrid.mixed_precision) work += 0.5 * (hierarchy + 2 * level);
  } else if (config.solver == "spectral") {
    // Three DST-I plans, each with a real and a complex batch buffer (3 elements per point) over
    // at most the batch bound; on several ranks the right-hand side, two slabs and four box
    // redistributions (a send and a receive buffer each) of about the rank's share of the grid.
    const double points = static_cast<double>(owned.size());
    const double batch = device ? kernels::fft::Dst1Plan<double>::device_max_batch_elements
                                : kernels::fft::Dst1Plan<double>::host_max_batch_elements;
    work = 3 * 3 * std::min(points, batch) * element;
    if (ranks > 1) {
      const double share = static_cast<double>(config.grid.points().size()) / ranks * element;
      work += 3 * share + 8 * share;
      if (host_staging) staged = 8 * share;
    }
  }
  MemoryNeed need;
  if (!device) {
    // u, f and the work arrays; f's host set-up field is freed before the solver allocates.
    need.host_bytes = std::max(3 * field, 2 * field + work) + halo + runtime_host_bytes;
  } else {
    need.device_bytes = 2 * field + work + halo + runtime_device_bytes;
    need.host_bytes = field + staged + halo + runtime_host_bytes;  // f's set-up field, then the output's host copy
  }
  return need;
}

}  // namespace gridflow::solver
