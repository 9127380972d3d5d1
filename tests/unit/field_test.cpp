#include <gtest/gtest.h>

#include <cstdint>

#include "mesh/field.hpp"

using gridflow::mesh::Box;
using gridflow::mesh::Field;
using gridflow::mesh::MemorySpace;

template <class T>
class FieldLayout : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(FieldLayout, Precisions);

TYPED_TEST(FieldLayout, OwnedRowsAreAlignedAndDistinct2D) {
  for (int ghost : {0, 1, 2, 3, 5}) {
    Field<TypeParam, 2> f(Box<2>{{3, -2}, {40, 17}}, ghost, MemorySpace::host);
    const auto g = f.ghosted();
    EXPECT_EQ(g, f.owned().grow(ghost));
    EXPECT_EQ(f.stride(1) * sizeof(TypeParam) % 128, 0u);
    for (auto j = f.owned().lo[1]; j <= f.owned().hi[1]; ++j)
      EXPECT_EQ(reinterpret_cast<std::uintptr_t>(&f(f.owned().lo[0], j)) % 64, 0u) << "ghost " << ghost;
    // every ghosted point has its own storage inside the allocation
    for (auto j = g.lo[1]; j <= g.hi[1]; ++j)
      for (auto i = g.lo[0]; i <= g.hi[0]; ++i) f(i, j) = static_cast<TypeParam>(i + 1000 * j);
    for (auto j = g.lo[1]; j <= g.hi[1]; ++j)
      for (auto i = g.lo[0]; i <= g.hi[0]; ++i) {
        ASSERT_EQ(f(i, j), static_cast<TypeParam>(i + 1000 * j));
        const auto offset = &f(i, j) - f.allocation();
        ASSERT_GE(offset, 0);
        ASSERT_LT(static_cast<std::size_t>(offset), f.allocated_elements());
      }
  }
}

TYPED_TEST(FieldLayout, ThreeDimensionalIndexing) {
  Field<TypeParam, 3> f(Box<3>{{0, 0, 0}, {6, 4, 3}}, 2, MemorySpace::host);
  const auto g = f.ghosted();
  for (auto k = g.lo[2]; k <= g.hi[2]; ++k)
    for (auto j = g.lo[1]; j <= g.hi[1]; ++j)
      for (auto i = g.lo[0]; i <= g.hi[0]; ++i) f(i, j, k) = static_cast<TypeParam>(i + 10 * j + 100 * k);
  for (auto k = g.lo[2]; k <= g.hi[2]; ++k)
    for (auto j = g.lo[1]; j <= g.hi[1]; ++j)
      for (auto i = g.lo[0]; i <= g.hi[0]; ++i) ASSERT_EQ(f(i, j, k), static_cast<TypeParam>(i + 10 * j + 100 * k));
  Field<TypeParam, 3> copy(f.owned(), 2, MemorySpace::host);
  copy.copy_from(f);
  EXPECT_EQ(copy(-2, -2, -2), f(-2, -2, -2));
  EXPECT_EQ(copy(8, 6, 5), f(8, 6, 5));
}

TYPED_TEST(FieldLayout, AllocatedBoxTilesTheAllocationExactly) {
  for (int ghost : {0, 1, 2, 3}) {
    Field<TypeParam, 3> f(Box<3>{{1, -2, 0}, {37, 5, 4}}, ghost, MemorySpace::host);
    const auto a = f.allocated_box();
    EXPECT_EQ(static_cast<std::size_t>(a.size()), f.allocated_elements()) << "ghost " << ghost;
    EXPECT_TRUE(a.contains(f.ghosted()));
    EXPECT_EQ(&f(a.lo[0], a.lo[1], a.lo[2]), f.allocation());
    EXPECT_EQ(&f(a.hi[0], a.hi[1], a.hi[2]), f.allocation() + f.allocated_elements() - 1);
  }
}

TEST(Field, RejectsEmptyBoxAndNegativeGhost) {
  EXPECT_THROW((Field<double, 2>(Box<2>{{0, 0}, {-1, 3}}, 1, MemorySpace::host)), gridflow::Error);
  EXPECT_THROW((Field<double, 2>(Box<2>{{0, 0}, {3, 3}}, -1, MemorySpace::host)), gridflow::Error);
}
