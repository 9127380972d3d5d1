// core::min_max on host fields: the least and greatest finite value of a box (ghosts and points
// outside the box ignored), whether all values are finite, and, where -0 and +0 tie for the
// least value, the first one in box order (x fastest): the serial loop's answer, kept bitwise.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "kernels/core/min_max.hpp"

namespace {

using gridflow::mesh::Box;
using gridflow::mesh::Field;
using gridflow::mesh::MemorySpace;
namespace core = gridflow::kernels::core;

template <class T>
class CoreMinMax : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(CoreMinMax, Precisions);

template <class T, int Dim>
Field<T, Dim> filled(const Box<Dim>& owned, T value) {
  Field<T, Dim> f(owned, 2, MemorySpace::host, "min_max");
  std::fill(f.allocation(), f.allocation() + f.allocated_elements(), value);
  return f;
}

}  // namespace

TYPED_TEST(CoreMinMax, FiniteValuesOfTheBoxOnly3D) {
  using T = TypeParam;
  const Box<3> owned{{-2, 0, 3}, {6, 5, 9}};
  auto f = filled<T, 3>(owned, T(1));
  f(-4, 0, 3) = T(-100);  // a ghost: not in the box
  f(0, 2, 4) = T(-3.5);
  f(6, 5, 9) = T(7.25);
  const auto r = core::min_max(f, owned, nullptr);
  EXPECT_EQ(r.min, T(-3.5));
  EXPECT_EQ(r.max, T(7.25));
  EXPECT_TRUE(r.finite);

  const Box<3> part{{1, 1, 5}, {6, 5, 9}};  // leaves out (0, 2, 4)
  const auto p = core::min_max(f, part, nullptr);
  EXPECT_EQ(p.min, T(1));
  EXPECT_EQ(p.max, T(7.25));
}

TYPED_TEST(CoreMinMax, NonFiniteValuesAreFlaggedAndSkipped2D) {
  using T = TypeParam;
  const Box<2> owned{{0, -3}, {20, 4}};
  auto f = filled<T, 2>(owned, T(2));
  f(3, 0) = std::numeric_limits<T>::quiet_NaN();
  f(4, 1) = std::numeric_limits<T>::infinity();
  f(5, 2) = -std::numeric_limits<T>::infinity();
  f(6, 3) = T(-1);
  const auto r = core::min_max(f, owned, nullptr);
  EXPECT_EQ(r.min, T(-1));
  EXPECT_EQ(r.max, T(2));
  EXPECT_FALSE(r.finite);

  auto bad = filled<T, 2>(owned, std::numeric_limits<T>::quiet_NaN());
  const auto none = core::min_max(bad, owned, nullptr);
  EXPECT_EQ(none.min, std::numeric_limits<T>::infinity());
  EXPECT_EQ(none.max, -std::numeric_limits<T>::infinity());
  EXPECT_FALSE(none.finite);
}

TYPED_TEST(CoreMinMax, SignedZerosTieToTheFirstInBoxOrder) {
  using T = TypeParam;
  const Box<3> owned{{0, 0, 0}, {7, 6, 5}};
  auto f = filled<T, 3>(owned, T(1));
  f(5, 0, 0) = T(0);   // first in box order
  f(2, 3, 4) = -T(0);  // later row
  auto r = core::min_max(f, owned, nullptr);
  EXPECT_EQ(r.min, T(0));
  EXPECT_FALSE(std::signbit(r.min)) << "+0 comes first";

  f(5, 0, 0) = -T(0);
  f(2, 3, 4) = T(0);
  r = core::min_max(f, owned, nullptr);
  EXPECT_TRUE(std::signbit(r.min)) << "-0 comes first";

  auto g = filled<T, 3>(owned, T(-1));  // the greatest value ties the same way
  g(0, 4, 1) = -T(0);
  g(3, 5, 5) = T(0);
  EXPECT_TRUE(std::signbit(core::min_max(g, owned, nullptr).max));
}

TYPED_TEST(CoreMinMax, EmptyOrOutsideBoxesAreRefused) {
  using T = TypeParam;
  const Box<2> owned{{0, 0}, {4, 4}};
  const auto f = filled<T, 2>(owned, T(0));
  EXPECT_THROW(core::min_max(f, Box<2>{{0, 0}, {-1, 4}}, nullptr), gridflow::Error);
  EXPECT_THROW(core::min_max(f, owned.grow(3), nullptr), gridflow::Error);
}
