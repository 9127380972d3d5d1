// The filter's tunables: every candidate of the search space is valid, the defaults fit in
// shared memory for the benchmark's filters, and tile clamping keeps a thin box's tiles full.
#include <gtest/gtest.h>

#include "kernels/filter/filter_search_space.hpp"
#include "kernels/filter/panel_block.hpp"
#include "kernels/filter/ring_block.hpp"
#include "kernels/filter/warp_block.hpp"
#include "kernels/filter/streaming_block.hpp"
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
  bad = FilterTunables::streaming_defaults_for(2);
  bad.threads = 1024;  // so do the streaming kernel's
  EXPECT_FALSE(bad.valid());
  bad = FilterTunables::ring_defaults_for(2);
  bad.threads = 1024;  // and the ring kernel's
  EXPECT_FALSE(bad.valid());

  bad = FilterTunables::streaming_defaults_for(3);
  bad.batch = 6;  // not a multiple of cells = 4
  EXPECT_FALSE(bad.valid());
  bad.cells = 8;  // streaming takes 8 outputs per thread, tiled does not
  bad.batch = 8;
  EXPECT_TRUE(bad.valid());
  bad.variant = FilterVariant::tiled;
  EXPECT_FALSE(bad.valid());
  // Ring: cells 2, 4 or 8, 2..4 steps of them staged, threads a multiple of the cross rows.
  FilterTunables ring = FilterTunables::defaults_for(3);
  EXPECT_EQ(ring.variant, FilterVariant::ring);
  EXPECT_TRUE(ring.valid());
  ring.batch = ring.cells;  // one step staged: nothing in flight while it is filtered
  EXPECT_FALSE(ring.valid());
  ring.batch = 5 * ring.cells;
  EXPECT_FALSE(ring.valid());
  ring = FilterTunables::defaults_for(3);
  ring.tile_y = 3;  // 128 threads are not whole rows of 3
  EXPECT_FALSE(ring.valid());
  ring = FilterTunables::defaults_for(3);
  ring.cells = 1;
  ring.batch = 2;
  EXPECT_FALSE(ring.valid());
}

TEST(FilterTunables, StreamingTilesAndSharedMemory) {
  const FilterTunables t2 = FilterTunables::streaming_defaults_for(2), t3 = FilterTunables::streaming_defaults_for(3);
  EXPECT_EQ(t2.variant, FilterVariant::streaming);
  EXPECT_EQ(FilterTunables::streaming_defaults_for(1).variant, FilterVariant::tiled);
  // Axes x, cross y, walk; each clamped, nothing widened.
  EXPECT_EQ((streaming_tile<2>(t2, mesh::Box<2>{{0, 0}, {8191, 8191}})), (std::array<int, 3>{128, 1, 256}));
  EXPECT_EQ((streaming_tile<2>(t2, mesh::Box<2>{{5, 5}, {14, 7}})), (std::array<int, 3>{10, 1, 3}));
  EXPECT_EQ((streaming_tile<3>(t3, mesh::Box<3>{{0, 0, 0}, {511, 511, 511}})), (std::array<int, 3>{64, 8, 128}));
  // Float, 2D, tile 128, lengths 9 x 9, batch 8: input 2 x 8 x 1 x 136, ring 2 x (8 + 8) x 1 x 128.
  const StreamingLayout l2(128, 1, 9, 1, 9, 8, 4, false);
  EXPECT_EQ(l2.pitch_in, 136);
  EXPECT_EQ(l2.bytes(4), (2u * 8 * 136 + 2u * 16 * 128) * 4);
  // 3D, tile 6 x 2, lengths 3 x 3 x 5, batch 2, double: rows padded to whole 16-byte vectors.
  const StreamingLayout l3(6, 2, 3, 3, 5, 2, 2, true);
  EXPECT_EQ(l3.ey, 4);
  EXPECT_EQ(l3.pitch_mid, 6);
  EXPECT_EQ(l3.pitch_in, 8);
  EXPECT_EQ(l3.slots, 6);
  EXPECT_EQ(l3.bytes(8), (2u * 2 * 4 * 8 + 2u * 4 * 6 + 2u * 6 * 2 * 6) * 8);
  // The defaults stream the benchmark's filters within the H100/H200's 227 KiB per block, in
  // double too: 2D Gaussian radius 16 and 32, 3D mean of 5.
  const std::size_t h100 = 227 * 1024;
  const mesh::Box<2> b2{{0, 0}, {8191, 8191}};
  const mesh::Box<3> b3{{0, 0, 0}, {511, 511, 511}};
  EXPECT_LE((streaming_shared_bytes<double, 2>(t2, b2, {gaussian_weights(4.0), gaussian_weights(4.0)})), h100);
  EXPECT_LE((streaming_shared_bytes<double, 2>(t2, b2, {gaussian_weights(8.0), gaussian_weights(8.0)})), h100);
  EXPECT_LE((streaming_shared_bytes<double, 3>(t3, b3, {mean_weights(5), mean_weights(5), mean_weights(5)})), h100);
  EXPECT_TRUE((streaming_applies<2>({mean_weights(3), mean_weights(3)})));
  EXPECT_FALSE((streaming_applies<2>({mean_weights(3), identity_weights()})));  // a 1D signal: tiled
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
  const FilterTunables t2 = FilterTunables::tiled_defaults_for(2);  // 64 x 32
  EXPECT_EQ((tile_extents<2>(t2, mesh::Box<2>{{0, 0}, {8191, 8191}})), (std::array<int, 3>{64, 32, 1}));
  EXPECT_EQ((tile_extents<2>(t2, mesh::Box<2>{{0, 0}, {9999999, 0}})), (std::array<int, 3>{2048, 1, 1}));  // a 1D signal
  EXPECT_EQ((tile_extents<2>(t2, mesh::Box<2>{{5, 5}, {14, 7}})), (std::array<int, 3>{10, 3, 1}));
  const FilterTunables t3 = FilterTunables::tiled_defaults_for(3);  // 32 x 16 x 8
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

TEST(FilterTunables, RingLengthsPitchesAndSharedMemory) {
  for (int dims : {1, 2, 3}) EXPECT_EQ(FilterTunables::ring_defaults_for(dims).variant, FilterVariant::ring) << dims;
  EXPECT_EQ(FilterTunables::defaults_for(2).variant, FilterVariant::panel);
  EXPECT_EQ(FilterTunables::defaults_for(3).variant, FilterVariant::ring);
  // Compiled: one length K in 3, 5, 9, 33 on x and the walk (2D, or the walk left alone), on every axis (3D).
  EXPECT_EQ((ring_lengths<2>({gaussian_weights(1.0), gaussian_weights(1.0)})), (std::array<int, 3>{9, 1, 9}));
  EXPECT_EQ((ring_lengths<2>({gaussian_weights(4.0), gaussian_weights(4.0)})), (std::array<int, 3>{33, 1, 33}));
  EXPECT_EQ((ring_lengths<2>({mean_weights(5), identity_weights()})), (std::array<int, 3>{5, 1, 1}));  // a 1D signal
  EXPECT_EQ((ring_lengths<3>({mean_weights(5), mean_weights(5), mean_weights(5)})), (std::array<int, 3>{5, 5, 5}));
  EXPECT_EQ((ring_lengths<2>({mean_weights(3), mean_weights(5)})), (std::array<int, 3>{0, 0, 0}));      // lengths differ
  EXPECT_EQ((ring_lengths<2>({mean_weights(7), mean_weights(7)})), (std::array<int, 3>{0, 0, 0}));      // not compiled
  EXPECT_EQ((ring_lengths<2>({identity_weights(), mean_weights(3)})), (std::array<int, 3>{0, 0, 0}));   // x left alone
  EXPECT_EQ((ring_lengths<2>({mean_weights(3), std::vector<double>{2.0}})), (std::array<int, 3>{0, 0, 0}));  // a scaling weight
  EXPECT_EQ((ring_lengths<3>({mean_weights(3), identity_weights(), mean_weights(3)})), (std::array<int, 3>{0, 0, 0}));
  // A staged row: the low halo rounded up to whole vectors, the columns, the high halo, whole vectors.
  EXPECT_EQ(ring_pitch(512, 9, 4), 4 + 512 + 4);
  EXPECT_EQ(ring_pitch(512, 5, 4), 4 + 512 + 4);
  EXPECT_EQ(ring_pitch(64, 33, 2), 16 + 64 + 16);
  EXPECT_EQ(ring_pitch(6, 3, 2), 2 + 6 + 2);
  // Columns per block and shared memory: 2D 128 threads of 4 floats, 3 steps of 4 rows; 3D 16 x 8
  // threads, 3 steps of 4 planes of 8 + 4 rows, and the x pass of a step.
  const FilterTunables t2 = FilterTunables::ring_defaults_for(2), t3 = FilterTunables::defaults_for(3);
  EXPECT_EQ((ring_tile_x<float, 2>(t2)), 512);
  EXPECT_EQ((ring_tile_x<float, 3>(t3)), 64);
  EXPECT_EQ((ring_tile_x<double, 3>(t3)), 32);
  EXPECT_EQ((ring_shared_bytes<float, 2>(t2, {9, 1, 9})), 3u * 4 * 1 * 520 * 4);
  EXPECT_EQ((ring_shared_bytes<float, 3>(t3, {5, 5, 5})), (3u * 4 * 12 * 72 + 4u * 12 * 64) * 4);
  // A 1D signal: 3 steps of 2 chunks of 256 double2 vectors with their halo.
  EXPECT_EQ((ring_shared_bytes<double, 2>(FilterTunables::ring_defaults_for(1), {5, 1, 1})), 3u * 2 * 1 * (2 + 512 + 2) * 8);
  EXPECT_EQ(ring_segment<2>(t2, mesh::Box<2>{{0, 0}, {8191, 49}}, 9), 50);  // clamped to the walk
  EXPECT_EQ(ring_segment<2>(t2, mesh::Box<2>{{0, 0}, {8191, 8191}}, 9), 64);
  EXPECT_EQ(ring_segment<2>(FilterTunables::ring_defaults_for(1), mesh::Box<2>{{0, 0}, {9999999, 0}}, 1), 4);  // chunks of the row
  EXPECT_EQ(ring_segment<3>(t3, mesh::Box<3>{{0, 0, 0}, {511, 511, 511}}, 5), 32);
  // The defaults fit the H100/H200's 227 KiB per block for the benchmark's filters, in double too.
  const std::size_t h100 = 227 * 1024;
  EXPECT_LE((ring_shared_bytes<double, 2>(t2, {33, 1, 33})), h100);
  EXPECT_LE((ring_shared_bytes<double, 3>(t3, {5, 5, 5})), h100);
  EXPECT_LE(t2.threads, ring_max_threads({33, 1, 33}));
}

TEST(FilterTunables, WarpLengthsAndSharedMemory) {
  EXPECT_EQ(FilterTunables::defaults_for(1).variant, FilterVariant::warp);
  EXPECT_TRUE(FilterTunables::defaults_for(1).valid());
  // One length K in 3, 5, 9, 33 on x alone; nothing else (the last axis filtered too, other lengths, 3D).
  EXPECT_EQ((warp_length<2>({mean_weights(5), identity_weights()})), 5);
  EXPECT_EQ((warp_length<2>({gaussian_weights(4.0), identity_weights()})), 33);
  EXPECT_EQ((warp_length<2>({gaussian_weights(1.0), gaussian_weights(1.0)})), 0);
  EXPECT_EQ((warp_length<2>({mean_weights(7), identity_weights()})), 0);
  EXPECT_EQ((warp_length<2>({identity_weights(), mean_weights(3)})), 0);
  EXPECT_EQ((warp_length<3>({mean_weights(5), identity_weights(), identity_weights()})), 0);
  // A warp's values: 32 threads x cells pairs and the halo in whole pairs on each side.
  EXPECT_EQ(warp_line_values(5, 2), (32 * 2 + 2 * 1) * 2);
  EXPECT_EQ(warp_line_values(33, 4), (32 * 4 + 2 * 8) * 2);
  // The defaults: 8 warps of 2 pairs per thread.
  EXPECT_EQ(warp_shared_bytes<double>(FilterTunables::defaults_for(1), 5), 8u * 132 * 8);
  // Every warp candidate of length 33 in double fits in 48 KiB, the shared memory of any device.
  for (const auto& t : filter_candidates(1))
    if (t.variant == FilterVariant::warp) {
      EXPECT_LE(warp_shared_bytes<double>(t, 33), 48u * 1024) << t;
    }
  FilterTunables bad = FilterTunables::defaults_for(1);
  bad.cells = 8;  // compiled for 2 and 4 pairs per thread
  EXPECT_FALSE(bad.valid());
  bad = FilterTunables::defaults_for(1);
  bad.threads = 1024;
  EXPECT_FALSE(bad.valid());
}

TEST(FilterTunables, PanelLengthsShapesPitchesAndSharedMemory) {
  // Compiled: one length K in 3, 5, 9, 33 on both axes of a 2D field.
  EXPECT_EQ((panel_length<2>({gaussian_weights(1.0), gaussian_weights(1.0)})), 9);
  EXPECT_EQ((panel_length<2>({gaussian_weights(4.0), gaussian_weights(4.0)})), 33);
  EXPECT_EQ((panel_length<2>({mean_weights(5), identity_weights()})), 0);  // x alone: the ring's or warp's
  EXPECT_EQ((panel_length<2>({mean_weights(3), mean_weights(5)})), 0);     // lengths differ
  EXPECT_EQ((panel_length<2>({mean_weights(7), mean_weights(7)})), 0);     // not compiled
  EXPECT_EQ((panel_length<3>({mean_weights(5), mean_weights(5), mean_weights(5)})), 0);
  // Valid: 64, 128 or 256 threads (2, 4 or 8 groups of 4 rows); column walks from 128.
  const FilterTunables p{FilterVariant::panel, 128, 1, 1, 256, true, 2, false, 2};  // two stages
  EXPECT_TRUE(p.valid()) << p;
  FilterTunables bad = p;
  bad.threads = 96;
  EXPECT_FALSE(bad.valid());
  bad.threads = 512;
  EXPECT_FALSE(bad.valid());
  bad = p;
  bad.tile_z = 0;
  EXPECT_FALSE(bad.valid());
  bad = p;
  bad.batch = 4;  // 1 to 3 stages
  EXPECT_FALSE(bad.valid());
  bad.batch = 0;
  EXPECT_FALSE(bad.valid());
  FilterTunables column = p;
  column.walk_columns = 1;  // 4 groups of 4 rows: one column of 16 float rows
  EXPECT_TRUE(column.valid());
  column.threads = 64;  // 2 groups: 8 rows, fewer than a column walk of 4 float vectors' rows
  EXPECT_FALSE(column.valid());
  column.threads = 128;
  column.walk_columns = 3;
  EXPECT_FALSE(column.valid());
  bool any = false;
  for (const auto& t : filter_candidates(2)) any = any || t.variant == FilterVariant::panel;
  EXPECT_TRUE(any);
  for (int dims : {1, 3})
    for (const auto& t : filter_candidates(dims)) EXPECT_NE(t.variant, FilterVariant::panel) << dims;
  // Walk widths: 1 and 2 where the groups tile them, else (and 0) a 16-byte vector.
  EXPECT_TRUE(panel_walk_fits(4, 1, 4));
  EXPECT_FALSE(panel_walk_fits(2, 1, 4));  // 64 threads: half the rows of a 128-column walk of one column
  EXPECT_TRUE(panel_walk_fits(2, 2, 4));
  EXPECT_TRUE(panel_walk_fits(2, 1, 2));
  EXPECT_EQ(panel_walk_width<float>(p), 4);
  EXPECT_EQ(panel_walk_width<double>(p), 2);
  column.walk_columns = 1;
  EXPECT_EQ(panel_walk_width<float>(column), 1);
  column.walk_columns = 2;
  column.threads = 64;
  EXPECT_TRUE(column.valid());
  EXPECT_EQ(panel_walk_width<float>(column), 2);
  EXPECT_EQ(panel_walk_width<double>(column), 2);
  EXPECT_EQ(FilterTunables::defaults_for(2).variant, FilterVariant::panel);
  EXPECT_TRUE(FilterTunables::panel_defaults().valid());
  // 128 threads: 4 groups of 4 rows, 16 rows a step.
  EXPECT_EQ(panel_rows(128), 16);
  EXPECT_EQ(panel_rows(256), 32);
  EXPECT_EQ(panel_rows(64), 8);
  // Pitches: odd numbers of 16-byte vectors.
  EXPECT_EQ(panel_pitch(128, 4), 132);
  EXPECT_EQ(panel_pitch(136, 4), 140);
  EXPECT_EQ(panel_pitch(64, 2), 66);
  EXPECT_EQ(panel_pitch(5, 4), 12);
  EXPECT_EQ(panel_in_pitch<float>(128, 33), 164);  // 16 + 128 + 16 values, 40 vectors -> 41
  EXPECT_EQ(panel_in_pitch<float>(128, 9), 140);
  EXPECT_EQ(panel_in_pitch<double>(64, 5), 70);    // 2 + 64 + 2 values, 34 vectors -> 35
  // Slots beyond the step's: ceil((K - 1) / S).
  EXPECT_EQ(panel_extra_slots(33, 16), 2);
  EXPECT_EQ(panel_extra_slots(33, 32), 1);
  EXPECT_EQ(panel_extra_slots(9, 32), 1);
  EXPECT_EQ(panel_extra_slots(3, 8), 1);
  // Float K = 33: two stages of 16 rows of 164, and a ring of 3 x 16 rows of 132 with its first
  // 32 written twice.
  EXPECT_EQ(panel_shared_bytes<float>(p, 33), (2u * 16 * 164 + (3u * 16 + 32) * 132) * 4);
  FilterTunables one = p;
  one.batch = 1;
  EXPECT_EQ(panel_shared_bytes<float>(one, 33), (1u * 16 * 164 + (3u * 16 + 32) * 132) * 4);
  // K = 9: a ring of 2 x 16 rows and 8 more.
  EXPECT_EQ(panel_shared_bytes<float>(p, 9), (2u * 16 * 140 + (2u * 16 + 8) * 132) * 4);
  // Every candidate fits the H100/H200's 227 KiB per block at K = 33, in double too.
  const std::size_t h100 = 227 * 1024;
  for (const auto& t : filter_candidates(2))
    if (t.variant == FilterVariant::panel) {
      EXPECT_LE(panel_shared_bytes<double>(t, 33), h100) << t;
      EXPECT_LE(panel_shared_bytes<float>(t, 33), h100) << t;
    }
}
