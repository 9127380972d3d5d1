// The CUDA min/max reduction against the host oracle, bitwise (min and max pick one of the
// values; no rounding, so any order gives the same bits), and both against values planted where
// the answer is known: float and double, 2D and 3D, on a field whose owned box starts at negative
// and odd indices with 2 ghost layers. Points around each box hold values beyond the box's
// extremes, so a kernel reading outside its box (a wrong offset or stride) is caught; the box's
// own extremes sit at its first and last points (the ends of the grid-stride loop). Boxes: one
// cell, a ragged one, one reaching into the ghosts, one x-column, and one of more points than a
// launch has threads (1024 blocks of 256), and values that are NaN or infinite, which are left out
// of min and max and reported by `finite`.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "box_iteration.hpp"
#include "gpu_test_support.hpp"
#include "typed_cases.hpp"
#include "kernels/core/min_max.hpp"
#include "mesh/device.hpp"
#include "mesh/field.hpp"

namespace {

using gridflow::mesh::Box;
using gridflow::mesh::Field;
using gridflow::mesh::Index;
using gridflow::mesh::MemorySpace;
namespace core = gridflow::kernels::core;

using gridflow::testing::at;
using gridflow::testing::Case;
using gridflow::testing::same_bits;

template <class C>
class MinMaxGpu : public ::testing::Test {};
using Cases = gridflow::testing::PrecisionDimCases;
TYPED_TEST_SUITE(MinMaxGpu, Cases);

constexpr int ghost = 2;

/// A field over `owned` whose points in `box` hold values in [-1000, -1] u [1, 1000] (no zeros,
/// whose sign min/max need not keep), with `lowest` at the box's point number `at_lowest` (x, y,
/// z order) and `highest` at `at_highest`, and whose other points hold -1e6 and +1e6, beyond both.
template <class T, int Dim>
Field<T, Dim> planted(const Box<Dim>& owned, const Box<Dim>& box, T lowest, T highest, Index at_lowest, Index at_highest) {
  Field<T, Dim> f(owned, ghost, MemorySpace::host, "planted");
  const auto v = f.view();
  std::uint64_t state = 0x9e3779b97f4a7c15ull;
  Index outside = 0;
  gridflow::testing::for_each_point<Dim>(f.ghosted(), [&](const auto& p) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    const double u = static_cast<double>(state >> 11) / 9007199254740992.0;  // [0, 1)
    const double value = gridflow::testing::inside<Dim>(box, p) ? (u < 0.5 ? -1 : 1) * (1 + 1998 * std::abs(u - 0.5))
                                                                 : (outside++ % 2 ? 1e6 : -1e6);
    at<decltype(v), Dim>(v, p) = static_cast<T>(value);
  });
  Index q = 0;
  gridflow::testing::for_each_point<Dim>(box, [&](const auto& p) {
    if (q == at_lowest) at<decltype(v), Dim>(v, p) = lowest;
    if (q == at_highest) at<decltype(v), Dim>(v, p) = highest;
    ++q;
  });
  return f;
}

template <class T, int Dim>
core::MinMax<T> on_device(const Field<T, Dim>& host, const Box<Dim>& box, gridflow::StreamHandle stream) {
  Field<T, Dim> device(host.owned(), host.ghost_width(), MemorySpace::device, "device");
  device.copy_from(host);
  return core::min_max(device, box, stream);
}

template <class T, int Dim>
std::vector<Box<Dim>> boxes(const Box<Dim>& owned) {
  Box<Dim> ragged = owned, into_ghosts = owned.grow(ghost), column = owned, one = {owned.hi, owned.hi};
  ragged.lo[0] += 5;
  ragged.hi[1] -= 3;
  into_ghosts.lo[0] += 1;  // the ghosted box less one layer on three sides: other points stay around it
  into_ghosts.hi[1] -= 1;
  into_ghosts.hi[Dim - 1] -= 1;
  column.lo[0] = column.hi[0] = owned.lo[0] + 2;
  return {one, ragged, into_ghosts, column, owned};
}

template <int Dim>
Box<Dim> owned_box() {
  if constexpr (Dim == 2) return {{-9, 3}, {61, 50}};
  else return {{-9, 3, -1}, {21, 24, 13}};
}

}  // namespace

TYPED_TEST(MinMaxGpu, MatchesTheHostOracleBitwiseAndFindsThePlantedExtremes) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  using T = typename TypeParam::value_type;
  constexpr int Dim = TypeParam::dim;
  gridflow::mesh::Stream stream;
  Box<Dim> large;  // more points than 1024 blocks x 256 threads: threads take several
  if constexpr (Dim == 2) large = {{-3, 1}, {700, 400}};
  else large = {{-3, 1, 2}, {70, 70, 62}};
  ASSERT_GT(large.size(), 1024 * 256);
  auto all = boxes<T, Dim>(owned_box<Dim>());
  all.push_back(large);
  const T lowest = static_cast<T>(-1000.5), highest = static_cast<T>(1000.25);
  for (const auto& box : all) {
    const Box<Dim> owned = box == large ? large : owned_box<Dim>();
    const Index n = box.size();
    // The extremes at the ends of the grid-stride loop, at the first two threads and across the
    // first block boundary (a tree reduction that drops a lane or a block shows), and in the middle.
    std::vector<Index> places;
    for (const Index q : {Index(0), n - 1, Index(1), Index(255), Index(256), n / 2, n - 2})
      if (q >= 0 && q < n && std::find(places.begin(), places.end(), q) == places.end()) places.push_back(q);
    for (std::size_t k = 0; k < places.size(); ++k) {
      const Index at_lowest = places[k], at_highest = places[(k + 1) % places.size()];
      SCOPED_TRACE(::testing::Message() << "box " << box << ", lowest at point " << at_lowest << ", highest at "
                                        << at_highest);
      const auto host_field = planted<T, Dim>(owned, box, lowest, highest, at_lowest, at_highest);
      const auto h = core::min_max(host_field, box, nullptr);
      const auto d = on_device(host_field, box, stream.get());
      EXPECT_TRUE(same_bits(d.min, h.min)) << d.min << " vs host " << h.min;
      EXPECT_TRUE(same_bits(d.max, h.max)) << d.max << " vs host " << h.max;
      EXPECT_EQ(d.finite, h.finite);
      EXPECT_TRUE(d.finite);
      if (n > 1) {
        EXPECT_EQ(d.min, lowest);
        EXPECT_EQ(d.max, highest);
      } else {
        EXPECT_EQ(d.min, highest) << "one cell: the value planted last";
        EXPECT_EQ(d.max, highest);
      }
    }
  }
}

TYPED_TEST(MinMaxGpu, NonFiniteValuesAreLeftOutAndReported) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  using T = typename TypeParam::value_type;
  constexpr int Dim = TypeParam::dim;
  const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
  const Box<Dim> owned = owned_box<Dim>();
  gridflow::mesh::Stream stream;
  for (const auto& box : boxes<T, Dim>(owned)) {
    if (box.size() < 4) continue;
    SCOPED_TRACE(::testing::Message() << "box " << box);
    // -inf at the first point, +inf at the last (where the finite extremes were), NaN inside.
    auto f = planted<T, Dim>(owned, box, -inf, inf, 0, box.size() - 1);
    auto v = f.view();
    std::array<Index, Dim> middle;
    for (int d = 0; d < Dim; ++d) middle[d] = (box.lo[d] + box.hi[d]) / 2;
    at<decltype(v), Dim>(v, middle) = nan;
    const auto h = core::min_max(f, box, nullptr);
    const auto d = on_device(f, box, stream.get());
    EXPECT_FALSE(h.finite);
    EXPECT_FALSE(d.finite);
    EXPECT_TRUE(same_bits(d.min, h.min)) << d.min << " vs host " << h.min;
    EXPECT_TRUE(same_bits(d.max, h.max)) << d.max << " vs host " << h.max;
    EXPECT_TRUE(std::isfinite(d.min) && std::isfinite(d.max)) << d.min << ' ' << d.max;
    EXPECT_GE(d.min, T(-1000));
    EXPECT_LE(d.max, T(1000));

    // Only NaN: no finite value, so min and max stay +inf and -inf, on both sides.
    gridflow::testing::for_each_point<Dim>(box, [&](const auto& p) { at<decltype(v), Dim>(v, p) = nan; });
    const auto hn = core::min_max(f, box, nullptr);
    const auto dn = on_device(f, box, stream.get());
    EXPECT_FALSE(dn.finite);
    EXPECT_TRUE(same_bits(dn.min, hn.min) && same_bits(dn.max, hn.max)) << dn.min << ' ' << dn.max;
    EXPECT_EQ(dn.min, inf);
    EXPECT_EQ(dn.max, -inf);
  }
}

TYPED_TEST(MinMaxGpu, AnEmptyBoxOrOneOutsideTheFieldIsRefusedOnBothSpaces) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  using T = typename TypeParam::value_type;
  constexpr int Dim = TypeParam::dim;
  const Box<Dim> owned = owned_box<Dim>();
  Box<Dim> empty = owned, outside = owned.grow(ghost);
  empty.hi[0] = empty.lo[0] - 1;
  outside.lo[1] -= 1;
  gridflow::mesh::Stream stream;  // a real stream: a null one is refused for device fields anyway
  for (const MemorySpace space : {MemorySpace::host, MemorySpace::device}) {
    const Field<T, Dim> f(owned, ghost, space, "f");
    const gridflow::StreamHandle s = space == MemorySpace::device ? stream.get() : nullptr;
    EXPECT_THROW(core::min_max(f, empty, s), gridflow::Error) << to_string(space);
    EXPECT_THROW(core::min_max(f, outside, s), gridflow::Error) << to_string(space);
  }
}
