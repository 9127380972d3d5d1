// The host loops every kernel family runs on (kernels/core/for_each_host.hpp): every point and
// every row of a box is visited exactly once, with its global indices, in 2D and 3D, for boxes at
// negative and positive offsets; empty boxes visit nothing.
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "box_iteration.hpp"
#include "kernels/core/for_each_host.hpp"

namespace {

using gridflow::mesh::Box;
using gridflow::mesh::Index;
namespace core = gridflow::kernels::core;

// How often op(i, j[, k]) saw each point of `box` (indexed x fastest), and how many calls named a
// point outside it.
template <int Dim>
std::vector<int> visits_per_point(const Box<Dim>& box, int& outside) {
  std::vector<int> visits(static_cast<std::size_t>(box.size()), 0);
  outside = 0;
  core::for_each_host("test::for_each", box, [&](auto... ijk) {
    const std::array<Index, Dim> p{ijk...};
    if (!gridflow::testing::inside<Dim>(box, p)) {
      ++outside;
      return;
    }
    Index q = 0;
    for (int d = Dim - 1; d >= 0; --d) q = q * box.extent(d) + (p[d] - box.lo[d]);
    ++visits[static_cast<std::size_t>(q)];
  });
  return visits;
}

}  // namespace

TEST(CoreForEachHost, VisitsEveryPointOnce2D) {
  for (const Box<2>& box : {Box<2>{{-3, 2}, {5, 9}}, Box<2>{{0, 0}, {0, 0}}, Box<2>{{7, -4}, {7, 3}}, Box<2>{{1, 1}, {40, 1}}}) {
    int outside = -1;
    EXPECT_EQ(visits_per_point(box, outside), std::vector<int>(static_cast<std::size_t>(box.size()), 1)) << box;
    EXPECT_EQ(outside, 0) << box;
  }
}

TEST(CoreForEachHost, VisitsEveryPointOnce3D) {
  for (const Box<3>& box : {Box<3>{{-2, 3, -5}, {4, 7, -1}}, Box<3>{{0, 0, 0}, {0, 0, 0}}, Box<3>{{1, 1, 1}, {1, 9, 1}},
                            Box<3>{{5, -1, 2}, {17, -1, 6}}}) {
    int outside = -1;
    EXPECT_EQ(visits_per_point(box, outside), std::vector<int>(static_cast<std::size_t>(box.size()), 1)) << box;
    EXPECT_EQ(outside, 0) << box;
  }
}

TEST(CoreForEachHost, EmptyBoxesVisitNothing) {
  int calls = 0;
  for (const Box<2>& box : {Box<2>{{0, 0}, {-1, 5}}, Box<2>{{3, 4}, {9, 3}}, Box<2>{{2, 2}, {1, 1}}}) {
    core::for_each_host("test::empty", box, [&](Index, Index) { ++calls; });
    core::for_each_row_host("test::empty", box, [&](Index) { ++calls; });
    EXPECT_EQ(core::row_count(box), 0);
  }
  for (const Box<3>& box : {Box<3>{{0, 0, 0}, {-1, 5, 5}}, Box<3>{{0, 0, 0}, {5, -1, 5}}, Box<3>{{0, 0, 0}, {5, 5, -1}}}) {
    core::for_each_host("test::empty", box, [&](Index, Index, Index) { ++calls; });
    core::for_each_row_host("test::empty", box, [&](Index, Index) { ++calls; });
    EXPECT_EQ(core::row_count(box), 0);
  }
  core::for_each_index_host("test::empty", 0, [&](std::int64_t) { ++calls; });
  core::for_each_index_host("test::empty", -3, [&](std::int64_t) { ++calls; });
  EXPECT_EQ(calls, 0);
}

TEST(CoreForEachHost, RowsAreNumberedYFastestThenZ) {
  const Box<3> box{{-1, 4, -2}, {3, 6, 1}};  // 3 rows along y, 4 planes
  ASSERT_EQ(core::row_count(box), 12);
  std::vector<std::array<Index, 2>> by_number(12, {-99, -99});
  for (std::int64_t r = 0; r < 12; ++r)
    by_number[r] = core::call_row(box, r, [](Index j, Index k) { return std::array<Index, 2>{j, k}; });
  std::int64_t r = 0;
  for (Index k = box.lo[2]; k <= box.hi[2]; ++k)
    for (Index j = box.lo[1]; j <= box.hi[1]; ++j, ++r) EXPECT_EQ(by_number[r], (std::array<Index, 2>{j, k})) << r;

  std::vector<int> rows_seen(12, 0);
  core::for_each_row_host("test::rows", box, [&](Index j, Index k) { ++rows_seen[(j - box.lo[1]) + 3 * (k - box.lo[2])]; });
  EXPECT_EQ(rows_seen, std::vector<int>(12, 1));

  const Box<2> flat{{2, -3}, {8, 1}};
  std::vector<int> seen2(5, 0);
  core::for_each_row_host("test::rows", flat, [&](Index j) { ++seen2[j - flat.lo[1]]; });
  EXPECT_EQ(seen2, std::vector<int>(5, 1));
}
