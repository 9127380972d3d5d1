// The index arithmetic of distributed multigrid: the ghost widths the grid transfers need when
// mesh::split_range splits fine and coarse points independently (checked against the kernels'
// footprints, and shown to be tight), the nesting of coarse points under fine boxes, and when
// the plan gathers coarse levels onto rank 0.
#include <gtest/gtest.h>

#include "kernels/multigrid/transfer.hpp"
#include "mesh/decomposition.hpp"
#include "solver/multigrid_plan.hpp"

namespace {

using gridflow::mesh::Box;
using gridflow::mesh::Index;
namespace mg = gridflow::kernels::multigrid;
namespace solver = gridflow::solver;

// One axis as a 3D box with the other axes a single point.
Box<3> axis_box(Index lo, Index hi) { return Box<3>{{lo, 0, 0}, {hi, 0, 0}}; }
Box<3> part(Index n_points, int parts, int q) {
  const auto r = gridflow::mesh::split_range(n_points, parts, q);
  return axis_box(r[0], r[1]);
}

// Whether every part's transfers stay within the given ghost widths.
bool restriction_fits(Index fine_n, int parts, Index width) {
  for (int q = 0; q < parts; ++q) {
    const auto coarse = part(fine_n / 2 + 1, parts, q).intersect(axis_box(1, fine_n / 2 - 1));
    if (!coarse.empty() && !part(fine_n + 1, parts, q).grow(0, width).contains(mg::restriction_footprint(coarse).intersect(axis_box(-100, 1000))))
      return false;
  }
  return true;
}
bool prolongation_fits(Index fine_n, int parts, Index width) {
  for (int q = 0; q < parts; ++q) {
    const auto fine = part(fine_n + 1, parts, q).intersect(axis_box(1, fine_n - 1));
    if (!fine.empty() && !part(fine_n / 2 + 1, parts, q).grow(0, width).contains(mg::prolongation_footprint(fine))) return false;
  }
  return true;
}

}  // namespace

TEST(MultigridPlan, TransferHalosCoverTheFootprintsAndAreTight) {
  for (Index fine_n = 4; fine_n <= 140; fine_n += 2)
    for (int parts = 1; parts <= 12 && (fine_n / 2 + 1) / parts >= 1; ++parts) {
      const Index r = solver::restriction_halo(fine_n, parts), p = solver::prolongation_halo(fine_n, parts);
      ASSERT_TRUE(restriction_fits(fine_n, parts, r)) << fine_n << " in " << parts;
      ASSERT_TRUE(prolongation_fits(fine_n, parts, p)) << fine_n << " in " << parts;
      if (r > 0) {
        ASSERT_FALSE(restriction_fits(fine_n, parts, r - 1)) << fine_n << " in " << parts;
      }
      if (p > 0) {
        ASSERT_FALSE(prolongation_fits(fine_n, parts, p - 1)) << fine_n << " in " << parts;
      }
    }
  // The split rule does not nest: 17 fine points in 6 parts own 0..2, 3..5, 6..8, ..., while the
  // 9 coarse points go 0..1, 2..3, 4..5, 6, 7, 8; the third part restricts onto coarse 4..5, which
  // reads fine 7..11, three beyond its fine points 6..8.
  EXPECT_EQ(solver::restriction_halo(16, 6), 3);
  EXPECT_EQ(solver::prolongation_halo(16, 6), 2);
  EXPECT_EQ(solver::restriction_halo(16, 1), 0);
  EXPECT_EQ(solver::prolongation_halo(16, 1), 0);
}

TEST(MultigridPlan, CoarsePointsUnderFineBoxesPartitionTheCoarseGrid) {
  for (Index fine_n : {8, 16, 30, 64})
    for (int parts = 1; parts <= 6; ++parts) {
      std::vector<int> hits(static_cast<std::size_t>(fine_n / 2 + 1), 0);
      for (int q = 0; q < parts; ++q) {
        const auto b = gridflow::kernels::multigrid::coarse_points_under(part(fine_n + 1, parts, q));
        for (Index i = b.lo[0]; i <= b.hi[0]; ++i) ++hits[static_cast<std::size_t>(i)];
      }
      for (int h : hits) ASSERT_EQ(h, 1) << fine_n << " in " << parts;
    }
}

TEST(MultigridPlan, CoarseLevelsAreGatheredOnceRanksRunOutOfPoints) {
  gridflow::mesh::Grid<3> grid;
  grid.n = {16, 16, 32};
  grid.length = {1, 1, 2};
  // 16 -> 8 -> 4 -> 2 intervals along x and y; 3 x 2 ranks keep 9 coarse points as 3, 3, 3 but
  // not 5 as 2, 2, 1. The last level halves z alone (4 -> 2), where x and y cannot go below 2.
  const auto plan = solver::plan_multigrid(grid, {3, 2, 1}, 2);
  ASSERT_EQ(plan.size(), 5u);
  EXPECT_EQ(plan[4].grid.n, (std::array<Index, 3>{2, 2, 2}));
  EXPECT_EQ(plan[3].coarsening.shift[0] + 2 * plan[3].coarsening.shift[1] + 4 * plan[3].coarsening.shift[2], 4);
  EXPECT_EQ(plan[1].grid.n, (std::array<Index, 3>{8, 8, 16}));
  EXPECT_EQ(plan[1].grid.length, grid.length);
  EXPECT_FALSE(plan[1].gathered);
  EXPECT_EQ(plan[1].dims, (std::array<int, 3>{3, 2, 1}));
  EXPECT_EQ(plan[0].to_coarser, solver::CoarseTransfer::halo);
  EXPECT_EQ(plan[0].restriction_width, std::max<Index>(1, solver::restriction_halo(16, 3)));
  EXPECT_EQ(plan[1].prolongation_width, std::max<Index>(1, solver::prolongation_halo(16, 3)));
  EXPECT_EQ(plan[1].to_coarser, solver::CoarseTransfer::gather);
  EXPECT_TRUE(plan[2].gathered);
  EXPECT_TRUE(plan[3].gathered);
  EXPECT_EQ(plan[2].dims, (std::array<int, 3>{1, 1, 1}));
  EXPECT_EQ(plan[2].to_coarser, solver::CoarseTransfer::halo);
  for (const auto& level : plan) EXPECT_GE(level.ghost, std::max(level.restriction_width, level.prolongation_width));

  for (const auto& level : solver::plan_multigrid(grid, {1, 1, 1}, 2)) {
    EXPECT_FALSE(level.gathered);
    EXPECT_EQ(level.ghost, 1);
    EXPECT_EQ(level.to_coarser, solver::CoarseTransfer::halo);
  }
}

TEST(MultigridPlan, StretchedSpacingHalvesTheFinelySpacedAxesFirst) {
  gridflow::mesh::Grid<3> grid;
  grid.n = {64, 64, 64};
  grid.length = {16, 1, 1};  // x spaced 16 times wider: y and z halve alone until the spacings are even
  const auto plan = solver::plan_multigrid(grid, {1, 1, 1}, 2);
  // Then x alone once y and z reach 2 intervals, until its spacing is twice theirs.
  const std::vector<std::array<Index, 3>> expected = {{64, 64, 64}, {64, 32, 32}, {64, 16, 16}, {64, 8, 8},
                                                      {64, 4, 4},   {32, 2, 2},   {16, 2, 2}};
  ASSERT_EQ(plan.size(), expected.size());
  for (std::size_t l = 0; l < expected.size(); ++l) EXPECT_EQ(plan[l].grid.n, expected[l]) << "level " << l;
  EXPECT_EQ(plan[0].coarsening.shift[0], 0);
  EXPECT_EQ(plan[0].coarsening.shift[1], 1);
  EXPECT_EQ(plan[4].coarsening.shift[0], 1) << "spacings even at level 4: every axis that can halves";
  EXPECT_FALSE(plan.back().coarsening.any());

  grid.length = {1, 1.0 / 16, 1};  // y spaced 16 times finer: y halves alone first
  const auto fine_y = solver::plan_multigrid(grid, {1, 1, 1}, 4);
  ASSERT_EQ(fine_y.size(), 6u);
  EXPECT_EQ(fine_y[1].grid.n, (std::array<Index, 3>{64, 32, 64}));
  EXPECT_EQ(fine_y[4].grid.n, (std::array<Index, 3>{64, 4, 64}));
  EXPECT_EQ(fine_y[5].grid.n, (std::array<Index, 3>{32, 4, 32})) << "y cannot go below 4 intervals; x and z are finest now";
}
