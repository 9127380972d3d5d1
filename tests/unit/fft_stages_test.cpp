// The stages of a distributed FFT (transform/fft_stages.hpp) for many rank counts: in every stage
// the ranks' boxes tile the spectrum without overlap, each keeps the transformed axis whole, the
// axes are transformed once each in order x, y[, z], and real values start from boxes of the
// grid's points that differ from stage 0's only along x.
#include <gtest/gtest.h>

#include "mesh/check.hpp"
#include "transform/fft_stages.hpp"

namespace {

using gridflow::mesh::Box;
using gridflow::transform::FftDecomposition;
using gridflow::transform::FftValues;
using gridflow::transform::plan_fft_stages;

template <int Dim>
void expect_tiling(const std::vector<Box<Dim>>& boxes, const Box<Dim>& whole) {
  gridflow::mesh::Index covered = 0;
  for (std::size_t a = 0; a < boxes.size(); ++a) {
    EXPECT_TRUE(whole.contains(boxes[a])) << boxes[a] << " outside " << whole;
    covered += boxes[a].size();
    for (std::size_t b = a + 1; b < boxes.size(); ++b)
      EXPECT_TRUE(boxes[a].intersect(boxes[b]).empty()) << boxes[a] << " overlaps " << boxes[b];
  }
  EXPECT_EQ(covered, whole.size());
}

template <int Dim>
void check(const Box<Dim>& points, FftValues values, FftDecomposition decomposition, int ranks) {
  SCOPED_TRACE("ranks " + std::to_string(ranks));
  const auto s = plan_fft_stages<Dim>(points, values, decomposition, ranks);
  auto spectrum = points;
  if (values == FftValues::real) spectrum.hi[0] = points.extent(0) / 2;
  EXPECT_EQ(s.spectrum, spectrum);
  ASSERT_EQ(s.stages.size(), static_cast<std::size_t>(Dim));
  for (int a = 0; a < Dim; ++a) {
    const auto& stage = s.stages[a];
    EXPECT_EQ(stage.axis, a);
    ASSERT_EQ(stage.boxes.size(), static_cast<std::size_t>(ranks));
    expect_tiling(stage.boxes, spectrum);
    for (const auto& b : stage.boxes) {
      if (!b.empty()) {
        EXPECT_EQ(b.extent(a), spectrum.extent(a)) << "axis " << a << " split in " << b;
      }
    }
  }
  if (values == FftValues::real) {
    ASSERT_EQ(s.real_boxes.size(), static_cast<std::size_t>(ranks));
    expect_tiling(s.real_boxes, points);
    for (int r = 0; r < ranks; ++r) {
      auto b = s.real_boxes[r];
      if (b.empty()) continue;
      b.hi[0] = spectrum.hi[0];
      EXPECT_EQ(b, s.stages[0].boxes[r]);
    }
  }
}

}  // namespace

TEST(FftStages, SlabAndPencilTileEveryStage) {
  const Box<2> plane{{0, 0}, {12, 8}};
  const Box<3> box{{0, 0, 0}, {8, 6, 4}};
  for (int ranks : {1, 2, 3, 4, 6, 7, 12}) {
    for (auto values : {FftValues::complex, FftValues::real}) {
      check<2>(plane, values, FftDecomposition::slab, ranks);
      check<3>(box, values, FftDecomposition::slab, ranks);
      check<3>(box, values, FftDecomposition::pencil, ranks);
    }
  }
}

TEST(FftStages, PencilGridIsAsSquareAsTheRankCountAllows) {
  EXPECT_EQ(gridflow::transform::pencil_rows(1), 1);
  EXPECT_EQ(gridflow::transform::pencil_rows(4), 2);
  EXPECT_EQ(gridflow::transform::pencil_rows(6), 2);
  EXPECT_EQ(gridflow::transform::pencil_rows(7), 1);
  EXPECT_EQ(gridflow::transform::pencil_rows(12), 3);
  EXPECT_EQ(gridflow::transform::pencil_rows(16), 4);
}

TEST(FftStages, PencilIn2dIsRefused) {
  EXPECT_THROW(plan_fft_stages<2>(Box<2>{{0, 0}, {4, 4}}, FftValues::real, FftDecomposition::pencil, 2),
               gridflow::Error);
}
