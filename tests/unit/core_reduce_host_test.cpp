// The deterministic host reduction (kernels/core/reduce_host.hpp) against a serial reference that
// adds in the documented order: along each x-row, then the row sums row after row (y fastest,
// then z), starting from 0. The terms mix magnitudes so that any other grouping or order gives
// other bits (checked), and the comparison is bitwise.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "kernels/core/reduce_host.hpp"

namespace {

using gridflow::mesh::Box;
using gridflow::mesh::Index;
namespace core = gridflow::kernels::core;

// A term whose sums depend on the order of addition: large values of both signs among small ones.
double term(Index i, Index j, Index k) {
  const double small = std::sin(0.7 * i + 1.3 * j + 0.1 * k);
  return (i + 2 * j + 3 * k) % 7 == 0 ? 1e15 * (((i + j + k) & 1) ? 1 : -1) + small : small;
}

double reference_3d(const Box<3>& box) {
  double total = 0;
  for (Index k = box.lo[2]; k <= box.hi[2]; ++k)
    for (Index j = box.lo[1]; j <= box.hi[1]; ++j) {
      double row = 0;
      for (Index i = box.lo[0]; i <= box.hi[0]; ++i) row += term(i, j, k);
      total += row;
    }
  return total;
}

// The same terms added one after another without row partials: another order.
double flat_sum_3d(const Box<3>& box) {
  double total = 0;
  for (Index k = box.lo[2]; k <= box.hi[2]; ++k)
    for (Index j = box.lo[1]; j <= box.hi[1]; ++j)
      for (Index i = box.lo[0]; i <= box.hi[0]; ++i) total += term(i, j, k);
  return total;
}

}  // namespace

TEST(CoreReduceHost, SumsInRowOrderBitwise3D) {
  // The last box has more rows than one batch of slots (2^14), so the fold crosses batches.
  for (const Box<3>& box : {Box<3>{{-3, 1, -2}, {9, 8, 4}}, Box<3>{{0, 0, 0}, {0, 0, 0}}, Box<3>{{2, -5, 1}, {4, 170, 99}}}) {
    const double expected = reference_3d(box);
    EXPECT_EQ(core::reduce_host<core::Sum>("test::sum", box, [](Index i, Index j, Index k) { return term(i, j, k); }), expected)
        << box;
    const double by_rows = core::reduce_rows_host<core::Sum>("test::sum_rows", box, [&](Index j, Index k) {
      double row = 0;
      for (Index i = box.lo[0]; i <= box.hi[0]; ++i) row += term(i, j, k);
      return row;
    });
    EXPECT_EQ(by_rows, expected) << box;
  }
  // The terms are order-sensitive, so the checks above pin the order.
  const Box<3> box{{-3, 1, -2}, {9, 8, 4}};
  EXPECT_NE(reference_3d(box), flat_sum_3d(box));
}

TEST(CoreReduceHost, SumsInRowOrderBitwise2D) {
  const Box<2> box{{-4, 3}, {30, 21}};
  double expected = 0;
  for (Index j = box.lo[1]; j <= box.hi[1]; ++j) {
    double row = 0;
    for (Index i = box.lo[0]; i <= box.hi[0]; ++i) row += term(i, j, 0);
    expected += row;
  }
  EXPECT_EQ(core::reduce_host<core::Sum>("test::sum", box, [](Index i, Index j) { return term(i, j, 0); }), expected);
}

TEST(CoreReduceHost, EmptyBoxGivesTheIdentity) {
  int calls = 0;
  const auto count = [&](auto...) {
    ++calls;
    return 1.0;
  };
  EXPECT_EQ(core::reduce_host<core::Sum>("test::empty", Box<3>{{0, 0, 0}, {4, -1, 4}}, count), 0.0);
  EXPECT_EQ(core::reduce_host<core::Sum>("test::empty", Box<2>{{5, 0}, {4, 9}}, count), 0.0);
  EXPECT_EQ(core::reduce_rows_host<core::Sum>("test::empty", Box<3>{{0, 0, 0}, {4, 4, -2}}, count), 0.0);
  EXPECT_EQ(calls, 0);
}

TEST(CoreReduceHost, RowsMayWriteAsTheyReduce) {
  // A fused sweep writes each row and returns its partial: every row runs exactly once.
  const Box<3> box{{0, 0, 0}, {3, 4, 5}};
  std::vector<int> written(30, 0);
  const double rows = core::reduce_rows_host<core::Sum>("test::fused", box, [&](Index j, Index k) {
    ++written[j + 5 * k];
    return 1.0;
  });
  EXPECT_EQ(rows, 30.0);
  EXPECT_EQ(written, std::vector<int>(30, 1));
}
