// The filter's tunables: every candidate of the search space is valid, the defaults fit in
// shared memory for the benchmark's filters, and tile clamping keeps a thin box's tiles full.
#include <gtest/gtest.h>

#include "kernels/filter/filter_search_space.hpp"
#include "kernels/filter/tiled_block.hpp"

using namespace gridflow;
using namespace gridflow::kernels::filter;

TEST(FilterTunables, EveryCandidateIsValidAndTheDirectVariantIsAmongThem) {
  for (int dims : {1, 2, 3}) {
    const auto c = filter_candidates(dims);
    ASSERT_GT(c.size(), 10u) << dims;
    EXPECT_EQ(c.front().variant, FilterVariant::direct);
    for (const auto& t : c) EXPECT_TRUE(t.valid()) << t;
    EXPECT_TRUE(FilterTunables::defaults_for(dims).valid());
  }
  FilterTunables bad;
  bad.cells = 3;
  EXPECT_FALSE(bad.valid());
  bad = FilterTunables{};
  bad.threads = 48;
  EXPECT_FALSE(bad.valid());
  bad = FilterTunables{};
  bad.unrolled = true;
  bad.threads = 1024;  // the unrolled kernel's registers allow 512
  EXPECT_FALSE(bad.valid());
}

TEST(FilterTunables, TheUnrolledLengthIsTheOneLengthOfTheFilteredAxes) {
  EXPECT_EQ(unrolled_length({9, 9, 1}), 9);
  EXPECT_EQ(unrolled_length({5, 1, 1}), 5);     // a 1D signal, or a per-axis launch
  EXPECT_EQ(unrolled_length({1, 33, 1}), 33);
  EXPECT_EQ(unrolled_length({5, 5, 5}), 5);
  EXPECT_EQ(unrolled_length({3, 5, 1}), 1);     // lengths differ: loops at run time
  EXPECT_EQ(unrolled_length({7, 7, 1}), 1);     // not instantiated
  EXPECT_EQ(unrolled_length({1, 1, 1}), 1);
}

TEST(FilterTunables, TilesClampToTheBoxAndAThinBoxWidensX) {
  const FilterTunables t2 = FilterTunables::defaults_for(2);  // 64 x 32
  EXPECT_EQ((tile_extents<2>(t2, mesh::Box<2>{{0, 0}, {8191, 8191}})), (std::array<int, 3>{64, 32, 1}));
  EXPECT_EQ((tile_extents<2>(t2, mesh::Box<2>{{0, 0}, {9999999, 0}})), (std::array<int, 3>{2048, 1, 1}));  // a 1D signal
  EXPECT_EQ((tile_extents<2>(t2, mesh::Box<2>{{5, 5}, {14, 7}})), (std::array<int, 3>{10, 3, 1}));
  const FilterTunables t3 = FilterTunables::defaults_for(3);  // 32 x 16 x 8
  EXPECT_EQ((tile_extents<3>(t3, mesh::Box<3>{{0, 0, 0}, {511, 511, 511}})), (std::array<int, 3>{32, 16, 8}));
  // The defaults' fused tiles fit the H100/H200's 227 KiB per block for the benchmark's filters,
  // in float and in double: 2D Gaussian radius 16, 3D mean of 5.
  const std::size_t h100 = 227 * 1024;
  EXPECT_LE(tiled_shared_bytes<2>({64, 32, 1}, {33, 33, 1}, 8), h100);
  EXPECT_LE(tiled_shared_bytes<3>({32, 16, 8}, {5, 5, 5}, 8), h100);
  EXPECT_EQ(tiled_shared_bytes<2>({4, 2, 1}, {3, 3, 1}, 4), (6u + 4u) * 4u * 1u * 4u);
  EXPECT_EQ(tiled_shared_bytes<2>({4, 2, 1}, {3, 1, 1}, 4), 6u * 2u * 1u * 4u);  // x pass writes the output
  EXPECT_EQ(tiled_shared_bytes<3>({4, 2, 1}, {3, 1, 1}, 4), (6u + 4u) * 2u * 1u * 4u);
}
