// boundary_index against scipy.ndimage's extension of a b c d (n = 4), one and several periods out.
#include <gtest/gtest.h>

#include <string>

#include "kernels/filter/boundary_mode.hpp"

using gridflow::kernels::filter::boundary_index;
using gridflow::kernels::filter::BoundaryMode;

namespace {
// The extension of "abcd" at indices -9 .. 12 as a string ('k' = cval). The expected strings
// below were printed by scipy 1.10: scipy.ndimage.correlate1d of [0, 1, 2, 3] with a one-hot
// weight vector of 27 picks the extended array's value at any offset -13 .. 13.
std::string extended(BoundaryMode mode, long long n = 4) {
  std::string s;
  for (long long i = -9; i <= 12; ++i) {
    const long long m = boundary_index(i, n, mode);
    s += m < 0 ? 'k' : static_cast<char>('a' + m);
  }
  return s;
}
}  // namespace

TEST(FilterBoundary, ModesExtendAsScipy) {
  //                                           -9.......-1|0123|4.......12
  EXPECT_EQ(extended(BoundaryMode::constant), "kkkkkkkkkabcdkkkkkkkkk");
  EXPECT_EQ(extended(BoundaryMode::nearest), "aaaaaaaaaabcdddddddddd");
  EXPECT_EQ(extended(BoundaryMode::reflect), "aabcddcbaabcddcbaabcdd");
  EXPECT_EQ(extended(BoundaryMode::mirror), "dcbabcdcbabcdcbabcdcba");
  EXPECT_EQ(extended(BoundaryMode::wrap), "dabcdabcdabcdabcdabcda");
}

TEST(FilterBoundary, SinglePointArrays) {
  for (auto mode : {BoundaryMode::nearest, BoundaryMode::reflect, BoundaryMode::mirror, BoundaryMode::wrap})
    for (long long i = -3; i <= 3; ++i) EXPECT_EQ(boundary_index(i, 1, mode), 0) << i;
  EXPECT_EQ(boundary_index(-1, 1, BoundaryMode::constant), -1);
  EXPECT_EQ(boundary_index(0, 1, BoundaryMode::constant), 0);
  // n = 2: mirror of a b is ... a b | a b | a b ...
  EXPECT_EQ(boundary_index(-1, 2, BoundaryMode::mirror), 1);
  EXPECT_EQ(boundary_index(2, 2, BoundaryMode::mirror), 0);
  EXPECT_EQ(boundary_index(-1, 2, BoundaryMode::reflect), 0);
}
