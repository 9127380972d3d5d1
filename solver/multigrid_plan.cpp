#include "solver/multigrid_plan.hpp"

#include <algorithm>

#include "mesh/check.hpp"
#include "mesh/decomposition.hpp"

namespace gridflow::solver {

kernels::multigrid::Coarsening coarsening_of(const mesh::Grid<3>& fine, mesh::Index coarse_points) {
  const double smallest = std::min({fine.spacing(0), fine.spacing(1), fine.spacing(2)});
  kernels::multigrid::Coarsening c;
  for (int d = 0; d < 3; ++d) {
    const bool halvable = fine.n[d] % 2 == 0 && fine.n[d] / 2 >= coarse_points;
    c.shift[d] = halvable && fine.spacing(d) <= coarsening_spacing_ratio * smallest ? 1 : 0;
  }
  return c;
}

mesh::Grid<3> coarsened(const mesh::Grid<3>& fine, const kernels::multigrid::Coarsening& c) {
  mesh::Grid<3> coarse = fine;
  for (int d = 0; d < 3; ++d) {
    if (!c.halves(d)) continue;
    GRIDFLOW_REQUIRE(fine.n[d] % 2 == 0 && fine.n[d] >= 2, "multigrid coarsens only even interval counts");
    coarse.n[d] = fine.n[d] / 2;
  }
  return coarse;
}

mesh::Index restriction_halo(mesh::Index fine_n, int parts) {
  const mesh::Index coarse_n = fine_n / 2;
  mesh::Index width = 0;
  for (int q = 0; q < parts; ++q) {
    const auto fine = mesh::split_range(fine_n + 1, parts, q);
    const auto coarse = mesh::split_range(coarse_n + 1, parts, q);
    const mesh::Index lo = std::max<mesh::Index>(coarse[0], 1), hi = std::min<mesh::Index>(coarse[1], coarse_n - 1);
    if (lo > hi) continue;
    width = std::max({width, fine[0] - (2 * lo - 1), (2 * hi + 1) - fine[1]});
  }
  return width;
}

mesh::Index prolongation_halo(mesh::Index fine_n, int parts) {
  const mesh::Index coarse_n = fine_n / 2;
  mesh::Index width = 0;
  for (int q = 0; q < parts; ++q) {
    const auto fine = mesh::split_range(fine_n + 1, parts, q);
    const auto coarse = mesh::split_range(coarse_n + 1, parts, q);
    const mesh::Index lo = std::max<mesh::Index>(fine[0], 1), hi = std::min<mesh::Index>(fine[1], fine_n - 1);
    if (lo > hi) continue;
    width = std::max({width, coarse[0] - lo / 2, (hi + 1) / 2 - coarse[1]});
  }
  return width;
}

std::vector<MultigridLevelPlan> plan_multigrid(const mesh::Grid<3>& finest, const std::array<int, 3>& dims,
                                               mesh::Index coarse_points) {
  std::vector<MultigridLevelPlan> plan(1);
  plan[0].grid = finest;
  plan[0].dims = dims;
  plan[0].coarsening = coarsening_of(finest, coarse_points);
  const bool several_ranks = dims[0] * dims[1] * dims[2] > 1;
  for (std::size_t l = 0; plan[l].coarsening.any(); ++l) {
    plan.emplace_back();
    auto& fine = plan[l];
    auto& coarse = plan[l + 1];
    coarse.grid = coarsened(fine.grid, fine.coarsening);
    coarse.coarsening = coarsening_of(coarse.grid, coarse_points);
    // Along an axis of one part, or one the coarse level keeps (split alike), both widths are 0:
    // a level on one rank keeps its coarser levels.
    mesh::Index restriction = 0, prolongation = 0;
    bool fits = true;
    for (int d = 0; d < 3; ++d) {
      if (!fine.coarsening.halves(d)) continue;
      restriction = std::max(restriction, restriction_halo(fine.grid.n[d], fine.dims[d]));
      prolongation = std::max(prolongation, prolongation_halo(fine.grid.n[d], fine.dims[d]));
    }
    const mesh::Index needed = std::max({min_points_per_rank, restriction, prolongation});
    for (int d = 0; d < 3; ++d)
      if (fine.coarsening.halves(d) && fine.dims[d] > 1 && (coarse.grid.n[d] + 1) / fine.dims[d] < needed) fits = false;
    if (fits) {
      coarse.dims = fine.dims;
      coarse.gathered = fine.gathered;
      fine.to_coarser = CoarseTransfer::halo;
      fine.restriction_width = static_cast<int>(std::max<mesh::Index>(restriction, 1));
      coarse.prolongation_width = static_cast<int>(std::max<mesh::Index>(prolongation, 1));
    } else {
      // Each rank restricts onto the coarse points under its own fine points (width 1) and
      // rank 0 collects them; the correction comes back the same way.
      coarse.dims = {1, 1, 1};
      coarse.gathered = several_ranks;
      fine.to_coarser = CoarseTransfer::gather;
      fine.restriction_width = 1;
      coarse.prolongation_width = 1;
    }
  }
  for (auto& level : plan) level.ghost = std::max(level.restriction_width, level.prolongation_width);
  return plan;
}

}  // namespace gridflow::solver
