#include <gtest/gtest.h>

#include <set>

#include "mesh/box.hpp"
#include "mesh/decomposition.hpp"
#include "mesh/grid.hpp"

using gridflow::mesh::Box;
using gridflow::mesh::Index;

TEST(Box, SizeGrowIntersect) {
  const Box<2> b{{2, 3}, {5, 9}};
  EXPECT_EQ(b.extent(0), 4);
  EXPECT_EQ(b.size(), 4 * 7);
  EXPECT_EQ(b.grow(1), (Box<2>{{1, 2}, {6, 10}}));
  EXPECT_EQ(b.grow(1, 2), (Box<2>{{2, 1}, {5, 11}}));
  EXPECT_TRUE(b.grow(-3).empty());
  EXPECT_EQ(b.grow(-3).size(), 0);
  EXPECT_EQ(b.intersect(Box<2>{{4, 0}, {10, 4}}), (Box<2>{{4, 3}, {5, 4}}));
  EXPECT_TRUE(b.contains(Box<2>{{3, 3}, {5, 9}}));
  EXPECT_FALSE(b.contains(Box<2>{{1, 3}, {5, 9}}));
  EXPECT_EQ(b.face(1, 1), (Box<2>{{2, 9}, {5, 9}}));
}

template <int Dim>
void expect_partition(const Box<Dim>& outer, const Box<Dim>& inner) {
  const auto pieces = gridflow::mesh::box_difference(outer, inner);
  Index total = 0;
  for (const auto& p : pieces) {
    EXPECT_FALSE(p.empty());
    EXPECT_TRUE(outer.contains(p));
    EXPECT_TRUE(p.intersect(inner).empty()) << p;
    total += p.size();
    for (const auto& q : pieces) {
      if (&p != &q) {
        EXPECT_TRUE(p.intersect(q).empty());
      }
    }
  }
  EXPECT_EQ(total, outer.size() - outer.intersect(inner).size());
}

TEST(Box, DifferenceIsADisjointCover) {
  expect_partition(Box<2>{{0, 0}, {9, 9}}, Box<2>{{1, 1}, {8, 8}});
  expect_partition(Box<2>{{0, 0}, {9, 9}}, Box<2>{{0, 3}, {9, 4}});
  expect_partition(Box<2>{{0, 0}, {9, 9}}, Box<2>{{20, 20}, {30, 30}});
  expect_partition(Box<2>{{0, 0}, {9, 9}}, Box<2>{{-5, -5}, {3, 30}});
  expect_partition(Box<3>{{0, 0, 0}, {7, 6, 5}}, Box<3>{{2, 1, 1}, {5, 5, 4}});
  EXPECT_EQ(gridflow::mesh::box_difference(Box<3>{{0, 0, 0}, {7, 6, 5}}, Box<3>{{1, 1, 1}, {6, 5, 4}}).size(), 6u);
}

TEST(Decomposition, SplitRangeCoversEveryPointOnce) {
  for (Index n : {1, 7, 64, 1001})
    for (int parts = 1; parts <= 7 && parts <= n; ++parts) {
      Index next = 0;
      for (int p = 0; p < parts; ++p) {
        const auto r = gridflow::mesh::split_range(n, parts, p);
        EXPECT_EQ(r[0], next);
        const Index size = r[1] - r[0] + 1;
        EXPECT_TRUE(size == n / parts || size == n / parts + 1);
        next = r[1] + 1;
      }
      EXPECT_EQ(next, n);
    }
}

TEST(Grid, VertexCentredCoordinates) {
  gridflow::mesh::Grid<2> g;
  g.n = {4, 8};
  g.length = {2.0, 1.0};
  g.origin = {-1.0, 0.5};
  EXPECT_DOUBLE_EQ(g.spacing(0), 0.5);
  EXPECT_DOUBLE_EQ(g.coordinate(0, 4), 1.0);
  EXPECT_DOUBLE_EQ(g.coordinate(1, 8), 1.5);
  EXPECT_EQ(g.points(), (Box<2>{{0, 0}, {4, 8}}));
  EXPECT_EQ(g.interior(), (Box<2>{{1, 1}, {3, 7}}));
}
