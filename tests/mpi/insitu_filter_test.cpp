// In-situ filters on a field decomposed over 1, 2, 3, 4 and 6 ranks equal the whole-array filter
// on one rank bit for bit, for every filter case and boundary mode (wrap across rank boundaries
// through periodic ghosts), in float and double, 2D and 3D; with method fft, the whole-array FFT
// variant, its tiles straddling the ranks' boxes.
#include <gtest/gtest.h>

#include "insitu_filter_test_support.hpp"

namespace {
template <class C>
class InsituFilterRanks : public ::testing::Test {};
TYPED_TEST_SUITE(InsituFilterRanks, gridflow::testing::PrecisionDimCases);
}  // namespace

TYPED_TEST(InsituFilterRanks, DecomposedEqualsTheWholeArrayBitwise) {
  gridflow::testing::expect_insitu_equals_whole_array<typename TypeParam::value_type, TypeParam::dim>(
      gridflow::mesh::MemorySpace::host, nullptr);
}

TYPED_TEST(InsituFilterRanks, ShortAxesTakeTheirOwnPeriodicGhosts) {
  constexpr int Dim = TypeParam::dim;
  gridflow::testing::expect_insitu_equals_whole_array<typename TypeParam::value_type, Dim>(
      gridflow::mesh::MemorySpace::host, nullptr, gridflow::testing::short_axis_grid<Dim>(),
      gridflow::testing::short_axis_cases<Dim>());
}

TYPED_TEST(InsituFilterRanks, FftMethodEqualsTheWholeArrayFftVariantBitwise) {
  constexpr int Dim = TypeParam::dim;
  gridflow::testing::expect_insitu_equals_whole_array<typename TypeParam::value_type, Dim>(
      gridflow::mesh::MemorySpace::host, nullptr, gridflow::testing::insitu_fft_test_grid<Dim>(), gridflow::testing::filter_cases<Dim>(),
      gridflow::autotune::FilterMethod::fft);
}
