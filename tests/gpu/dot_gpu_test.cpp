// The CUDA dot product of the multigrid vector operations (kernels/multigrid/vector_ops: the CG
// solver's reduction) against the host oracle, float and double, on two fields of different
// layouts (owned boxes at negative and odd indices, ghost widths 1 and 3), over boxes that are
// empty, one cell, one x-column, one z-plane, ragged, reaching into the ghosts, and larger than a
// launch has threads (1024 blocks of 256), so threads sum several terms.
//
// Host and device are NOT designed to agree bitwise: both form every product the same way
// (product_point in double; no FMA contraction on either side), but the host sums each x-row in
// order and then the rows (in Kokkos's reduction order), while the device sums a grid-stride
// share per thread, then a tree of 256 per block, then the blocks in order on the host. So:
//   - on values whose products and every partial sum are exact in double (multiples of 2^-8,
//     |sum| < 2^45), any order gives the same bits: host, device and the exact sum agree bitwise;
//   - on general values they agree to the standard bound of two summation orders,
//     |device - host| <= (gamma(depth_host) + gamma(depth_device)) * sum |a_i b_i|, gamma(n) = n u / (1 - n u),
//     with u = 2^-53 and depth the longest chain of additions a term goes through on each side
//     (host: a row, then the rows; device: a thread's share, 8 tree levels, the blocks);
//   - the device sums in a fixed order (partials added in block order), so it repeats its bits.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "gpu_test_support.hpp"
#include "typed_cases.hpp"
#include "kernels/multigrid/vector_ops.hpp"
#include "mesh/device.hpp"
#include "mesh/field.hpp"

namespace {

using gridflow::mesh::Box;
using gridflow::mesh::Field;
using gridflow::mesh::Index;
using gridflow::mesh::MemorySpace;
namespace mg = gridflow::kernels::multigrid;

template <class T>
class DotGpu : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(DotGpu, Precisions);

const Box<3> a_owned{{-5, 2, -3}, {40, 30, 20}};  // ghost 1
const Box<3> b_owned{{-8, 0, -4}, {43, 33, 22}};  // ghost 3
const Box<3> large_owned{{-1, 0, 3}, {98, 79, 72}};  // 100 x 80 x 70 points

/// Boxes inside both fields' ghosted boxes (a's: a_owned grown by 1).
std::vector<Box<3>> small_boxes() {
  return {
      {{3, 4, 5}, {2, 4, 5}},         // empty
      {{-6, 1, -4}, {-6, 1, -4}},     // one cell, a's outermost ghost corner
      {{7, 1, -4}, {7, 31, 21}},      // one x-column through the ghosts
      {{-6, 1, 9}, {41, 31, 9}},      // one z-plane, ghosts included
      {{-3, 4, -1}, {35, 27, 16}},    // ragged
      a_owned,                        //
      a_owned.grow(1),                // reaching into a's ghosts on every side
  };
}

/// Fills the ghosted box of `f` with values from `next()`.
template <class T, class Next>
Field<T, 3> filled(const Box<3>& owned, int ghost, Next&& next) {
  Field<T, 3> f(owned, ghost, MemorySpace::host, "host");
  const auto g = f.ghosted();
  for (Index k = g.lo[2]; k <= g.hi[2]; ++k)
    for (Index j = g.lo[1]; j <= g.hi[1]; ++j)
      for (Index i = g.lo[0]; i <= g.hi[0]; ++i) f(i, j, k) = next();
  return f;
}

template <class T>
Field<T, 3> to_device(const Field<T, 3>& host) {
  Field<T, 3> d(host.owned(), host.ghost_width(), MemorySpace::device, "device");
  d.copy_from(host);
  return d;
}

struct Lcg {
  std::uint64_t state;
  std::uint64_t next() { return state = state * 6364136223846793005ull + 1442695040888963407ull; }
  /// An integer in [-64, 64].
  int small() { return static_cast<int>((next() >> 33) % 129) - 64; }
  /// A value in (-1, 1) with all 53 bits used.
  double real() { return 2.0 * static_cast<double>(next() >> 11) / 9007199254740992.0 - 1.0; }
};

/// gamma(n) = n u / (1 - n u), u = 2^-53: the relative bound of n rounded additions.
double gamma(double n) {
  const double u = std::ldexp(1.0, -53);
  return n * u / (1 - n * u);
}

/// The bound above on |device - host| for a box of `size` points, `nx` long rows.
double order_bound(const Box<3>& box, long double sum_of_magnitudes) {
  if (box.empty()) return 0;
  const double size = static_cast<double>(box.size()), nx = static_cast<double>(box.extent(0));
  const double rows = size / nx;
  const double blocks = std::min(std::ceil(size / 256), 1024.0);
  const double per_thread = std::ceil(size / (blocks * 256));
  const double host_depth = nx + rows, device_depth = per_thread + 8 + blocks + 1;
  return (gamma(host_depth) + gamma(device_depth)) * static_cast<double>(sum_of_magnitudes);
}

using gridflow::testing::same_bits;

}  // namespace

TYPED_TEST(DotGpu, ExactlyRepresentableSumsAreBitwiseEqualToTheExactValue) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  using T = TypeParam;
  Lcg rng{12345};
  // Non-zero multiples of 1/16 up to 65/16: exact in float; each product a multiple of 2^-8.
  auto sixteenths = [&] {
    const int k = rng.small();
    return static_cast<T>((k ? k : 65) / 16.0);
  };
  const auto ha = filled<T>(a_owned, 1, sixteenths), hb = filled<T>(b_owned, 3, sixteenths);
  const auto da = to_device(ha), db = to_device(hb);
  const auto hl = filled<T>(large_owned, 2, sixteenths), hm = filled<T>(large_owned, 1, sixteenths);
  const auto dl = to_device(hl), dm = to_device(hm);
  gridflow::mesh::Stream stream;
  auto check = [&](const Field<T, 3>& x, const Field<T, 3>& y, const Field<T, 3>& dx, const Field<T, 3>& dy, const Box<3>& box) {
    SCOPED_TRACE(::testing::Message() << "box " << box);
    std::int64_t units = 0;  // the exact sum in units of 2^-8
    for (Index k = box.lo[2]; k <= box.hi[2]; ++k)
      for (Index j = box.lo[1]; j <= box.hi[1]; ++j)
        for (Index i = box.lo[0]; i <= box.hi[0]; ++i)
          units += std::llround(static_cast<double>(x(i, j, k)) * 16) * std::llround(static_cast<double>(y(i, j, k)) * 16);
    const double exact = std::ldexp(static_cast<double>(units), -8);
    const double host = mg::dot(x, y, box, nullptr), device = mg::dot(dx, dy, box, stream.get());
    EXPECT_TRUE(same_bits(host, exact)) << host << " vs exact " << exact;
    EXPECT_TRUE(same_bits(device, exact)) << device << " vs exact " << exact;
  };
  for (const auto& box : small_boxes()) check(ha, hb, da, db, box);
  ASSERT_GT(large_owned.size(), 1024 * 256 * 2);
  check(hl, hm, dl, dm, large_owned.grow(1));
}

TYPED_TEST(DotGpu, GeneralSumsAgreeWithinTheBoundOfTwoSummationOrdersAndRepeatOnTheDevice) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  using T = TypeParam;
  Lcg rng{987654321};
  // All 53 (24) bits used, mixed signs, magnitudes up to 2^3: cancellation, and rounding in
  // every addition.
  auto general = [&] { return static_cast<T>(std::ldexp(rng.real(), static_cast<int>(rng.next() >> 61) - 4)); };
  const auto ha = filled<T>(a_owned, 1, general), hb = filled<T>(b_owned, 3, general);
  const auto da = to_device(ha), db = to_device(hb);
  const auto hl = filled<T>(large_owned, 2, general), hm = filled<T>(large_owned, 1, general);
  const auto dl = to_device(hl), dm = to_device(hm);
  gridflow::mesh::Stream stream;
  auto check = [&](const Field<T, 3>& x, const Field<T, 3>& y, const Field<T, 3>& dx, const Field<T, 3>& dy, const Box<3>& box) {
    SCOPED_TRACE(::testing::Message() << "box " << box);
    long double magnitudes = 0, reference = 0;
    for (Index k = box.lo[2]; k <= box.hi[2]; ++k)
      for (Index j = box.lo[1]; j <= box.hi[1]; ++j)
        for (Index i = box.lo[0]; i <= box.hi[0]; ++i) {
          const double term = static_cast<double>(x(i, j, k)) * static_cast<double>(y(i, j, k));
          magnitudes += std::fabs(term);
          reference += term;
        }
    const double host = mg::dot(x, y, box, nullptr), device = mg::dot(dx, dy, box, stream.get());
    const double bound = order_bound(box, magnitudes);
    EXPECT_LE(std::fabs(device - host), bound) << "device " << device << " host " << host;
    // Each side alone is within its part of the bound of a sum in higher precision (the test above
    // catches a term left out or summed twice exactly; this one, rounding gone wrong).
    EXPECT_LE(std::fabs(static_cast<long double>(host) - reference), bound) << "host " << host;
    EXPECT_LE(std::fabs(static_cast<long double>(device) - reference), bound) << "device " << device;
    EXPECT_TRUE(same_bits(mg::dot(dx, dy, box, stream.get()), device)) << "the device sum changed between two calls";
    if (box.empty()) {
      EXPECT_EQ(host, 0.0);
      EXPECT_EQ(device, 0.0);
    }
  };
  for (const auto& box : small_boxes()) check(ha, hb, da, db, box);
  check(hl, hm, dl, dm, large_owned.grow(1));
}
