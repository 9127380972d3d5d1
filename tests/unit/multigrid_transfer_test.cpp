// The host oracles of the multigrid grid transfers on polynomials: restriction (full weighting)
// reproduces constants and linear functions exactly and adds the known h^2 term to quadratics;
// trilinear prolongation reproduces linear functions exactly. Values are small integers or
// halves, so "exactly" means bitwise in both precisions.
#include <gtest/gtest.h>

#include <cmath>

#include "kernels/multigrid/residual.hpp"
#include "kernels/stencil/jacobi.hpp"
#include "kernels/multigrid/transfer.hpp"

namespace {

using gridflow::mesh::Box;
using gridflow::mesh::Field;
using gridflow::mesh::MemorySpace;
namespace mg = gridflow::kernels::multigrid;

template <class T>
class MultigridTransfer : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(MultigridTransfer, Precisions);

// A fine field over points 0..n (n = {12, 10, 8}) plus ghosts, filled with p(i, j, k).
template <class T, class P>
Field<T, 3> fine_field(P&& p, int ghost = 1) {
  Field<T, 3> f(Box<3>{{0, 0, 0}, {12, 10, 8}}, ghost, MemorySpace::host, "fine");
  const auto g = f.ghosted();
  for (auto k = g.lo[2]; k <= g.hi[2]; ++k)
    for (auto j = g.lo[1]; j <= g.hi[1]; ++j)
      for (auto i = g.lo[0]; i <= g.hi[0]; ++i) f(i, j, k) = static_cast<T>(p(i, j, k));
  return f;
}

const Box<3> coarse_points{{0, 0, 0}, {6, 5, 4}};
const Box<3> coarse_interior = coarse_points.grow(-1);

}  // namespace

TYPED_TEST(MultigridTransfer, RestrictionOfAConstantIsTheConstant) {
  using T = TypeParam;
  const auto fine = fine_field<T>([](auto, auto, auto) { return 0.7; });
  Field<T, 3> coarse(coarse_points, 1, MemorySpace::host);
  mg::restrict_full_weighting(fine, coarse, coarse_interior, nullptr);
  for (auto k = coarse_interior.lo[2]; k <= coarse_interior.hi[2]; ++k)
    for (auto j = coarse_interior.lo[1]; j <= coarse_interior.hi[1]; ++j)
      for (auto i = coarse_interior.lo[0]; i <= coarse_interior.hi[0]; ++i) ASSERT_EQ(coarse(i, j, k), static_cast<T>(0.7));
  EXPECT_EQ(coarse(0, 0, 0), T(0)) << "points outside the box are not written";
}

TYPED_TEST(MultigridTransfer, RestrictionIsExactOnLinearAndBilinearFunctions) {
  using T = TypeParam;
  const auto p = [](double i, double j, double k) { return 3 * i - 2 * j + k + 5 + i * j - 2 * j * k + i * k; };
  const auto fine = fine_field<T>(p);
  Field<T, 3> coarse(coarse_points, 1, MemorySpace::host);
  mg::restrict_full_weighting(fine, coarse, coarse_interior, nullptr);
  for (auto k = coarse_interior.lo[2]; k <= coarse_interior.hi[2]; ++k)
    for (auto j = coarse_interior.lo[1]; j <= coarse_interior.hi[1]; ++j)
      for (auto i = coarse_interior.lo[0]; i <= coarse_interior.hi[0]; ++i)
        ASSERT_EQ(coarse(i, j, k), static_cast<T>(p(2 * i, 2 * j, 2 * k))) << i << ' ' << j << ' ' << k;
}

TYPED_TEST(MultigridTransfer, RestrictionOfAQuadraticAddsHalfItsSecondDerivatives) {
  using T = TypeParam;
  // Full weighting of i^2 along one axis: i^2 + 1/2 (index units); of a i^2 + b j^2 + c k^2: + (a + b + c)/2.
  const auto p = [](double i, double j, double k) { return i * i + 2 * j * j + 3 * k * k + i * j; };
  const auto fine = fine_field<T>(p);
  Field<T, 3> coarse(coarse_points, 1, MemorySpace::host);
  mg::restrict_full_weighting(fine, coarse, coarse_interior, nullptr);
  for (auto k = coarse_interior.lo[2]; k <= coarse_interior.hi[2]; ++k)
    for (auto j = coarse_interior.lo[1]; j <= coarse_interior.hi[1]; ++j)
      for (auto i = coarse_interior.lo[0]; i <= coarse_interior.hi[0]; ++i)
        ASSERT_EQ(coarse(i, j, k), static_cast<T>(p(2 * i, 2 * j, 2 * k) + 3)) << i << ' ' << j << ' ' << k;
}

TYPED_TEST(MultigridTransfer, ProlongationIsExactOnLinearFunctionsAndAddsToTheFineField) {
  using T = TypeParam;
  // Coarse values of 2 I - 3 J + K + 1; at fine point i that is i - 1.5 j + 0.5 k + 1, plus the 4 already there.
  Field<T, 3> coarse(coarse_points, 1, MemorySpace::host);
  for (auto k = 0; k <= 4; ++k)
    for (auto j = 0; j <= 5; ++j)
      for (auto i = 0; i <= 6; ++i) coarse(i, j, k) = static_cast<T>(2 * i - 3 * j + k + 1);
  auto fine = fine_field<T>([](auto, auto, auto) { return 4.0; });
  const Box<3> updated{{1, 1, 1}, {11, 9, 7}};
  mg::prolong_and_add(coarse, fine, updated, nullptr);
  for (auto k = updated.lo[2]; k <= updated.hi[2]; ++k)
    for (auto j = updated.lo[1]; j <= updated.hi[1]; ++j)
      for (auto i = updated.lo[0]; i <= updated.hi[0]; ++i)
        ASSERT_EQ(fine(i, j, k), static_cast<T>(4 + i - 1.5 * j + 0.5 * k + 1)) << i << ' ' << j << ' ' << k;
  EXPECT_EQ(fine(0, 0, 0), T(4)) << "points outside the box are not written";
}

TYPED_TEST(MultigridTransfer, FootprintsAreChecked) {
  using T = TypeParam;
  // Restricting onto coarse point 6 (fine 12) would read fine 13, beyond a ghost width of 0.
  const auto fine = fine_field<T>([](auto, auto, auto) { return 1.0; }, 0);
  Field<T, 3> coarse(coarse_points, 1, MemorySpace::host);
  EXPECT_THROW(mg::restrict_full_weighting(fine, coarse, coarse_points, nullptr), gridflow::Error);
  EXPECT_EQ(mg::restriction_footprint(Box<3>{{2, 3, 1}, {4, 3, 2}}), (Box<3>{{3, 5, 1}, {9, 7, 5}}));
  EXPECT_EQ(mg::prolongation_footprint(Box<3>{{3, 4, 1}, {7, 4, 2}}), (Box<3>{{1, 2, 0}, {4, 2, 1}}));
}

// The fused residual restriction is the residual field restricted, bitwise: the same operations
// on the same values, only not stored in between.
TYPED_TEST(MultigridTransfer, ResidualRestrictionEqualsTheRestrictedResidualBitwise) {
  using T = TypeParam;
  const auto u = fine_field<T>([](double i, double j, double k) { return std::sin(0.7 * i + 0.3) * std::cos(0.4 * j) + 0.05 * k * k; });
  const auto f = fine_field<T>([](double i, double j, double k) { return std::cos(0.2 * i * j) - 0.3 * k; });
  const auto c = gridflow::kernels::stencil::poisson_coefficients<T>(0.1, 0.13, 0.07);
  Field<T, 3> r(u.owned(), 1, MemorySpace::host, "r");
  mg::residual(u, f, r, u.owned().grow(-1), c, nullptr);
  Field<T, 3> separate(coarse_points, 1, MemorySpace::host), fused(coarse_points, 1, MemorySpace::host);
  mg::restrict_full_weighting(r, separate, coarse_interior, nullptr);
  mg::restrict_residual_full_weighting(u, f, fused, coarse_interior, c, nullptr);
  const auto g = fused.ghosted();
  std::size_t differing = 0, nonzero = 0;
  for (auto k = g.lo[2]; k <= g.hi[2]; ++k)
    for (auto j = g.lo[1]; j <= g.hi[1]; ++j)
      for (auto i = g.lo[0]; i <= g.hi[0]; ++i) {
        differing += fused(i, j, k) != separate(i, j, k);
        nonzero += fused(i, j, k) != T(0);
      }
  EXPECT_EQ(differing, 0u);
  EXPECT_EQ(nonzero, static_cast<std::size_t>(coarse_interior.size())) << "every interior coarse point written, nothing else";
  // Its footprint grown by one must lie in u: the corner coarse point of the whole grid reads past it.
  EXPECT_THROW(mg::restrict_residual_full_weighting(u, f, fused, coarse_points, c, nullptr), gridflow::Error);
}
