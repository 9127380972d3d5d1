#pragma once
// The layout of a multigrid hierarchy over the ranks, computed from sizes alone (the same on
// every rank, without communication): per level its grid, its process grid or that it lives on
// rank 0 alone, and the ghost widths its grid transfers need.
//
// Level l+1 halves some axes of level l (coarsening_of: the finely spaced ones first, so strongly
// coupled axes are coarsened alone until the spacings even out, then all of them: semi-coarsening
// keeps point smoothers effective on stretched spacing); along a halved axis coarse point I is fine
// point 2I, along a kept axis it is fine point I, split over the ranks alike. A coarse level keeps
// the fine level's process grid while every rank still owns enough points along every axis.
// mesh::split_range splits the n+1 fine and n/2+1 coarse points of an axis independently (the
// remainder going to the first parts), so a rank's coarse points need not lie under its fine
// points: their offset grows with the number of parts along the axis (about parts/2), and the
// transfers exchange ghosts that wide rather than redistributing. Once a coarse level would leave
// a rank too few points, it and every coarser level are gathered onto rank 0 and solved there.
#include <array>
#include <vector>

#include "kernels/multigrid/multigrid_point.hpp"
#include "mesh/box.hpp"
#include "mesh/grid.hpp"

namespace gridflow::solver {

/// How a level hands its residual to the next coarser level and takes back the correction.
enum class CoarseTransfer {
  halo,    ///< both levels split over the same process grid: ghost exchanges around the transfer
  gather,  ///< the coarser level lives on rank 0: restricted pieces are gathered, corrections scattered
};

struct MultigridLevelPlan {
  mesh::Grid<3> grid;
  std::array<int, 3> dims{1, 1, 1};  ///< process grid of this level ({1, 1, 1} when gathered)
  bool gathered = false;             ///< lives on rank 0 alone, below a level split over several ranks
  int ghost = 1;                     ///< ghost width of this level's fields
  int restriction_width = 1;         ///< residual halo exchanged before restricting to the next level
  int prolongation_width = 1;        ///< halo of this level's correction exchanged before prolonging it
  CoarseTransfer to_coarser = CoarseTransfer::halo;  ///< meaningless on the coarsest level
  kernels::multigrid::Coarsening coarsening;         ///< the axes the next coarser level halves (none on the coarsest)
};

/// Fewest points a rank may own along an axis of a level split over several ranks.
constexpr mesh::Index min_points_per_rank = 2;

/// Spacings within this factor of the smallest count as even: those axes are halved together.
constexpr double coarsening_spacing_ratio = 1.5;

/// The axes the level below `fine` halves: each axis whose interval count is even and stays >=
/// coarse_points when halved, and whose spacing is at most coarsening_spacing_ratio times the
/// smallest spacing of all three axes. None (any() false) when no axis qualifies: `fine` is then
/// the coarsest level.
kernels::multigrid::Coarsening coarsening_of(const mesh::Grid<3>& fine, mesh::Index coarse_points);

/// The grid with the interval counts of the axes `c` halves halved (even there), same origin and length.
mesh::Grid<3> coarsened(const mesh::Grid<3>& fine, const kernels::multigrid::Coarsening& c);

/// Every level below `finest` (split over `dims`, the finest decomposition's process grid) while
/// coarsening_of finds an axis to halve.
std::vector<MultigridLevelPlan> plan_multigrid(const mesh::Grid<3>& finest, const std::array<int, 3>& dims,
                                               mesh::Index coarse_points);

/// One axis of fine_n intervals (and fine_n/2 coarse ones) split into `parts` by split_range:
/// the fine ghost width every part needs to restrict onto its coarse interior points.
mesh::Index restriction_halo(mesh::Index fine_n, int parts);
/// The coarse ghost width every part needs to prolong onto its fine interior points.
mesh::Index prolongation_halo(mesh::Index fine_n, int parts);

}  // namespace gridflow::solver
