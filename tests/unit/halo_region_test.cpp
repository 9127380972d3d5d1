// The box arithmetic of halo regions, without MPI: coverage, disjointness, symmetry between
// partners, and the per-axis formula for widths within the neighbours' extents.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <set>
#include <vector>

#include "box_iteration.hpp"
#include "halo/halo_region.hpp"

namespace gridflow::halo {
namespace {

using gridflow::testing::for_each_point;
using gridflow::testing::inside;

template <int Dim>
std::vector<std::array<int, Dim>> all_coords(const std::array<int, Dim>& dims) {
  std::vector<std::array<int, Dim>> out;
  std::array<int, Dim> c{};
  while (true) {
    out.push_back(c);
    int d = 0;
    while (d < Dim && c[d] == dims[d] - 1) c[d] = 0, ++d;
    if (d == Dim) return out;
    ++c[d];
  }
}



// Checks every rank of one decomposition at one width.
template <int Dim>
void check_decomposition(const std::array<mesh::Index, Dim>& points, const std::array<int, Dim>& dims, int width) {
  mesh::Box<Dim> grid;
  for (int d = 0; d < Dim; ++d) grid.hi[d] = points[d] - 1;
  mesh::Index smallest = points[0];
  for (int d = 0; d < Dim; ++d) smallest = std::min<mesh::Index>(smallest, points[d] / dims[d]);

  for (const auto& coords : all_coords<Dim>(dims)) {
    ::testing::Message where;
    where << "dims";
    for (int d = 0; d < Dim; ++d) where << ' ' << dims[d];
    where << ", coords";
    for (int d = 0; d < Dim; ++d) where << ' ' << coords[d];
    where << ", width " << width;
    SCOPED_TRACE(where);
    const mesh::Box<Dim> mine = owned_box<Dim>(points, dims, coords);
    const auto regions = halo_regions<Dim>(points, dims, coords, width);

    // The recv boxes tile owned.grow(width) ∩ grid minus owned, once each.
    std::set<std::array<mesh::Index, Dim>> seen;
    std::set<std::array<int, Dim>> offsets;
    for (const auto& r : regions) {
      EXPECT_FALSE(r.recv.empty());
      EXPECT_FALSE(r.send.empty());
      EXPECT_TRUE(mine.contains(r.send)) << r.send << " not in " << mine;
      EXPECT_TRUE(offsets.insert(r.offset).second) << "two regions with one partner";
      std::array<int, Dim> theirs_at{};
      for (int d = 0; d < Dim; ++d) theirs_at[d] = coords[d] + r.offset[d];
      EXPECT_TRUE(owned_box<Dim>(points, dims, theirs_at).contains(r.recv));
      for_each_point<Dim>(r.recv, [&](const auto& p) { EXPECT_TRUE(seen.insert(p).second); });

      // The partner's mirrored region sends exactly what this one receives, and vice versa.
      const auto partner = halo_regions<Dim>(points, dims, theirs_at, width);
      std::array<int, Dim> back{};
      for (int d = 0; d < Dim; ++d) back[d] = -r.offset[d];
      const auto m = std::find_if(partner.begin(), partner.end(), [&](const auto& q) { return q.offset == back; });
      ASSERT_NE(m, partner.end());
      EXPECT_EQ(m->send, r.recv);
      EXPECT_EQ(m->recv, r.send);
    }
    long expected = 0;
    for_each_point<Dim>(mine.grow(width).intersect(grid), [&](const auto& p) {
      if (inside<Dim>(mine, p)) return;
      ++expected;
      EXPECT_EQ(seen.count(p), 1u);
    });
    EXPECT_EQ(static_cast<long>(seen.size()), expected);

    // Within the neighbours' extents: the 3^Dim - 1 offsets and the formula of halo_region.hpp.
    if (width <= smallest) {
      for (const auto& r : regions)
        for (int d = 0; d < Dim; ++d) {
          ASSERT_LE(std::abs(r.offset[d]), 1);
          const mesh::Index lo = mine.lo[d], hi = mine.hi[d];
          if (r.offset[d] == -1) {
            EXPECT_EQ(r.recv.lo[d], lo - width);
            EXPECT_EQ(r.recv.hi[d], lo - 1);
            EXPECT_EQ(r.send.lo[d], lo);
            EXPECT_EQ(r.send.hi[d], lo + width - 1);
          } else if (r.offset[d] == 1) {
            EXPECT_EQ(r.recv.lo[d], hi + 1);
            EXPECT_EQ(r.recv.hi[d], hi + width);
            EXPECT_EQ(r.send.lo[d], hi - width + 1);
            EXPECT_EQ(r.send.hi[d], hi);
          } else {
            EXPECT_EQ(r.recv.lo[d], lo);
            EXPECT_EQ(r.recv.hi[d], hi);
            EXPECT_EQ(r.send.lo[d], lo);
            EXPECT_EQ(r.send.hi[d], hi);
          }
        }
    }
  }
}

TEST(HaloRegion, Tiles2DHalosForEveryWidthAndProcessGrid) {
  const std::vector<std::array<int, 2>> grids{{1, 1}, {2, 1}, {1, 3}, {2, 2}, {3, 2}, {4, 1}, {2, 3}};
  for (const auto& dims : grids)
    for (int w = 0; w <= 4; ++w) check_decomposition<2>({11, 8}, dims, w);
}

TEST(HaloRegion, Tiles3DHalosForEveryWidthAndProcessGrid) {
  const std::vector<std::array<int, 3>> grids{{1, 1, 1}, {2, 1, 1}, {1, 2, 1}, {1, 1, 3}, {2, 2, 2}, {3, 1, 2}};
  for (const auto& dims : grids)
    for (int w = 1; w <= 3; ++w) check_decomposition<3>({7, 6, 8}, dims, w);
}

TEST(HaloRegion, CountsFacesEdgesAndCornersOfAnInteriorRank) {
  // The middle rank of 3x3(x3) has every neighbour: 8 in 2D, 26 in 3D.
  EXPECT_EQ(halo_regions<2>({30, 30}, {3, 3}, {1, 1}, 2).size(), 8u);
  EXPECT_EQ(halo_regions<3>({12, 12, 12}, {3, 3, 3}, {1, 1, 1}, 1).size(), 26u);
  EXPECT_EQ(halo_regions<3>({12, 12, 12}, {3, 3, 3}, {0, 0, 0}, 1).size(), 7u);
  EXPECT_TRUE(halo_regions<2>({30, 30}, {1, 1}, {0, 0}, 3).empty());
}

TEST(HaloRegion, WideHalosReachPastNarrowNeighbours) {
  // 5 points over 4 ranks: parts of 2, 1, 1, 1; width 3 from rank 0 reaches ranks 1..3.
  const auto regions = halo_regions<2>({5, 4}, {4, 1}, {0, 0}, 3);
  ASSERT_EQ(regions.size(), 3u);
  EXPECT_EQ(regions.back().offset[0], 3);
  EXPECT_EQ(regions.back().recv, (mesh::Box<2>{{4, 0}, {4, 3}}));
}

TEST(HaloRegion, DirectionTagsAreDistinctAndSmall) {
  std::set<int> tags;
  for (int z = -1; z <= 1; ++z)
    for (int y = -1; y <= 1; ++y)
      for (int x = -1; x <= 1; ++x) {
        const int t = direction_tag<3>({x, y, z});
        EXPECT_GE(t, 0);
        EXPECT_LT(t, 27);
        tags.insert(t);
      }
  EXPECT_EQ(tags.size(), 27u);
  EXPECT_EQ(direction_tag<2>({3, -2}), direction_tag<2>({1, -1}));
}

}  // namespace
}  // namespace gridflow::halo
