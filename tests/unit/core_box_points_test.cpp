// core::BoxPoints, the numbering the device loops, the device reductions and pack buffers share:
// point q of a box is the q-th in x-fastest order, and ordinal() is the inverse of at(), in 2D and
// 3D, at offsets of either sign. Checked here on the host, where the same code runs.
#include <gtest/gtest.h>

#include <array>

#include "box_iteration.hpp"
#include "kernels/core/box_points.hpp"

namespace {

using gridflow::mesh::Box;
using gridflow::mesh::Index;
namespace core = gridflow::kernels::core;

template <int Dim>
void expect_numbered_in_box_order(const Box<Dim>& box) {
  const auto points = core::BoxPoints<Dim>::of(box);
  ASSERT_EQ(points.size, box.size());
  long long q = 0;
  gridflow::testing::for_each_point<Dim>(box, [&](const std::array<Index, Dim>& p) {
    const auto at = points.at(q, [](auto... index) { return std::array<Index, Dim>{index...}; });
    EXPECT_EQ(at, p) << box << " point " << q;
    const long long back = points.at(q, [&](auto... index) { return points.ordinal(index...); });
    EXPECT_EQ(back, q) << box;
    ++q;
  });
  EXPECT_EQ(q, points.size);
}

}  // namespace

TEST(CoreBoxPoints, NumbersPointsXFastest2D) {
  expect_numbered_in_box_order(Box<2>{{-3, 4}, {5, 9}});
  expect_numbered_in_box_order(Box<2>{{7, -2}, {7, 6}});
  expect_numbered_in_box_order(Box<2>{{0, 0}, {12, 0}});
}

TEST(CoreBoxPoints, NumbersPointsXFastest3D) {
  expect_numbered_in_box_order(Box<3>{{-2, 3, -4}, {4, 6, 1}});
  expect_numbered_in_box_order(Box<3>{{1, 1, 1}, {1, 1, 9}});
  expect_numbered_in_box_order(Box<3>{{0, -5, 2}, {17, -5, 3}});
}

TEST(CoreBoxPoints, EmptyBoxHasNoPoints) {
  EXPECT_EQ(core::BoxPoints<3>::of(Box<3>{{0, 0, 0}, {4, -1, 4}}).size, 0);
  EXPECT_EQ(core::BoxPoints<2>::of(Box<2>{{3, 0}, {2, 4}}).size, 0);
}
