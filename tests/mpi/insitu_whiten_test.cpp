// The in-situ whitening filter on a field decomposed over 1, 2, 3, 4 and 6 ranks (gathered into
// whole frames on rank 0, whitened there, scattered back) equals the Whitener on whole frames on
// one rank bit for bit, frame after frame, in float and double.
#include <gtest/gtest.h>

#include "insitu_whiten_test_support.hpp"

TEST(InsituWhitenRanks, DecomposedFramesEqualWholeFramesBitwiseDouble) {
  gridflow::testing::expect_insitu_whiten_equals_whole_frames<double>(gridflow::mesh::MemorySpace::host, nullptr, true, 0);
}

TEST(InsituWhitenRanks, DecomposedFramesEqualWholeFramesBitwiseFloat) {
  gridflow::testing::expect_insitu_whiten_equals_whole_frames<float>(gridflow::mesh::MemorySpace::host, nullptr, true, 0);
}
