// The batched DST-I (FFTW through the real-FFT fold/unfold) against the direct O(N^2) sum, along
// every axis of a box inside a padded field with ghosts, for even and odd N, in one batch and in
// several; and its inverse property: applied twice it multiplies by N/2.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "kernels/fft/dst1.hpp"
#include "spectral_test_support.hpp"

namespace {

using gridflow::mesh::Box;
using gridflow::mesh::Field;
using gridflow::mesh::Index;
using gridflow::mesh::MemorySpace;

template <class T>
class Dst1 : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(Dst1, Precisions);

template <class T>
double tolerance() {
  return sizeof(T) == 4 ? 2e-6 : 1e-13;
}

// A box whose lines along `axis` have n - 1 points: 3 x 2 lines, at an arbitrary offset.
Box<3> line_box(int axis, Index n) {
  Box<3> b{{2, -1, 5}, {2, -1, 5}};
  Index others = 0;
  for (int d = 0; d < 3; ++d) b.hi[d] += d == axis ? n - 2 : (others++ == 0 ? 2 : 1);
  return b;
}


// Max over the box of |got - direct DST of x| relative to max |x| times N, and whether the ghosts kept their values.
template <class T>
double error_against_direct_sum(const Field<T, 3>& x, const Field<T, 3>& got, const Box<3>& box, int axis, bool& ghosts_kept) {
  const Index n = box.extent(axis) + 1;
  double err = 0, scale = 0;
  for (auto k = box.lo[2]; k <= box.hi[2]; ++k)
    for (auto j = box.lo[1]; j <= box.hi[1]; ++j)
      for (auto i = box.lo[0]; i <= box.hi[0]; ++i) {
        std::array<Index, 3> p{i, j, k};
        const Index out = p[axis] - box.lo[axis] + 1;
        long double sum = 0;
        for (Index m = 1; m < n; ++m) {
          auto q = p;
          q[axis] = box.lo[axis] + m - 1;
          sum += static_cast<long double>(x(q[0], q[1], q[2])) * std::sin(static_cast<long double>(M_PI) * m * out / n);
        }
        err = std::max(err, std::abs(static_cast<double>(got(i, j, k)) - static_cast<double>(sum)));
        scale = std::max(scale, std::abs(static_cast<double>(x(i, j, k))));
      }
  ghosts_kept = true;
  const auto g = x.ghosted();
  for (auto k = g.lo[2]; k <= g.hi[2]; ++k)
    for (auto j = g.lo[1]; j <= g.hi[1]; ++j)
      for (auto i = g.lo[0]; i <= g.hi[0]; ++i)
        if (!box.contains(Box<3>{{i, j, k}, {i, j, k}}) && x(i, j, k) != got(i, j, k)) ghosts_kept = false;
  return err / (scale * static_cast<double>(n));
}

}  // namespace

TYPED_TEST(Dst1, MatchesDirectSumOnEveryAxis) {
  using T = TypeParam;
  for (Index n : {2, 3, 4, 5, 8, 13, 16, 31, 64, 97})
    for (int axis = 0; axis < 3; ++axis) {
      const auto box = line_box(axis, n);
      const auto x = gridflow::testing::random_field<T>(box, 1, static_cast<unsigned>(n * 3 + axis));
      Field<T, 3> y(box, 1, MemorySpace::host, "y");
      y.copy_from(x);
      gridflow::kernels::fft::Dst1Plan<T> plan(box, axis, MemorySpace::host, nullptr);
      EXPECT_EQ(plan.length(), n);
      plan.apply(y);
      bool ghosts_kept = false;
      EXPECT_LT(error_against_direct_sum(x, y, box, axis, ghosts_kept), tolerance<T>()) << "N " << n << " axis " << axis;
      EXPECT_TRUE(ghosts_kept) << "N " << n << " axis " << axis;
    }
}

TYPED_TEST(Dst1, SeveralBatchesGiveTheSameTransform) {
  using T = TypeParam;
  const Index n = 12;
  for (int axis = 0; axis < 3; ++axis) {
    const auto box = line_box(axis, n);  // 6 lines
    const auto x = gridflow::testing::random_field<T>(box, 1, 7u + static_cast<unsigned>(axis));
    Field<T, 3> y(box, 1, MemorySpace::host, "y");
    y.copy_from(x);
    gridflow::kernels::fft::Dst1Plan<T> plan(box, axis, MemorySpace::host, nullptr, 4 * n);  // 4 lines fit: 2 batches of 3
    EXPECT_EQ(plan.batch(), 3);
    plan.apply(y);
    bool ghosts_kept = false;
    EXPECT_LT(error_against_direct_sum(x, y, box, axis, ghosts_kept), tolerance<T>()) << "axis " << axis;
    EXPECT_TRUE(ghosts_kept);
  }
}

TYPED_TEST(Dst1, TwiceIsHalfNTimesTheInput) {
  using T = TypeParam;
  for (Index n : {2, 7, 10, 33})
    for (int axis = 0; axis < 3; ++axis) {
      const auto box = line_box(axis, n);
      const auto x = gridflow::testing::random_field<T>(box, 1, 11u * static_cast<unsigned>(n) + static_cast<unsigned>(axis));
      Field<T, 3> y(box, 1, MemorySpace::host, "y");
      y.copy_from(x);
      gridflow::kernels::fft::Dst1Plan<T> plan(box, axis, MemorySpace::host, nullptr);
      plan.apply(y);
      plan.apply(y);
      double err = 0;
      for (auto k = box.lo[2]; k <= box.hi[2]; ++k)
        for (auto j = box.lo[1]; j <= box.hi[1]; ++j)
          for (auto i = box.lo[0]; i <= box.hi[0]; ++i)
            err = std::max(err, std::abs(static_cast<double>(y(i, j, k)) * 2.0 / static_cast<double>(n) -
                                         static_cast<double>(x(i, j, k))));
      EXPECT_LT(err, 4 * tolerance<T>() * static_cast<double>(n)) << "N " << n << " axis " << axis;
    }
}

TEST(Dst1Plan, RejectsBadArguments) {
  using gridflow::kernels::fft::Dst1Plan;
  EXPECT_THROW(Dst1Plan<double>(Box<3>{{0, 0, 0}, {-1, 3, 3}}, 0, MemorySpace::host, nullptr), gridflow::Error);
  EXPECT_THROW(Dst1Plan<double>(Box<3>{{0, 0, 0}, {3, 3, 3}}, 3, MemorySpace::host, nullptr), gridflow::Error);
  Dst1Plan<double> plan(Box<3>{{0, 0, 0}, {3, 3, 3}}, 1, MemorySpace::host, nullptr);
  Field<double, 3> small(Box<3>{{0, 0, 0}, {2, 3, 3}}, 0, MemorySpace::host);
  EXPECT_THROW(plan.apply(small), gridflow::Error);
}
