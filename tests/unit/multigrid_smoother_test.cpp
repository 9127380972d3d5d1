// The host oracles of the multigrid smoothers, residual and vector operations: red-black
// colours follow the global index, so a sweep over two boxes gives what a sweep over their union
// gives; the smoothers reduce the residual; the residual vanishes on the exact solution.
#include <gtest/gtest.h>

#include <cmath>

#include "kernels/multigrid/residual.hpp"
#include "kernels/multigrid/smoother.hpp"
#include "kernels/multigrid/vector_ops.hpp"
#include "kernels/stencil/jacobi.hpp"

namespace {

using gridflow::mesh::Box;
using gridflow::mesh::Field;
using gridflow::mesh::MemorySpace;
namespace mg = gridflow::kernels::multigrid;
namespace stencil = gridflow::kernels::stencil;

template <class T>
class MultigridSmoother : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(MultigridSmoother, Precisions);

const Box<3> points{{0, 0, 0}, {11, 9, 13}};
const Box<3> interior = points.grow(-1);

template <class T, class P>
void fill(Field<T, 3>& f, P&& p) {
  const auto g = f.ghosted();
  for (auto k = g.lo[2]; k <= g.hi[2]; ++k)
    for (auto j = g.lo[1]; j <= g.hi[1]; ++j)
      for (auto i = g.lo[0]; i <= g.hi[0]; ++i) f(i, j, k) = static_cast<T>(p(i, j, k));
}

double wiggle(double i, double j, double k) { return std::sin(0.7 * i + 0.3 * j * j) * std::cos(0.5 * k) + 0.01 * i * k; }

template <class T>
double residual_norm(const Field<T, 3>& u, const Field<T, 3>& f, const stencil::PoissonCoefficients<T>& c) {
  return std::sqrt(stencil::residual_norm_squared(u, f, interior, c, nullptr));
}

}  // namespace

TYPED_TEST(MultigridSmoother, RedBlackColoursFollowTheGlobalIndex) {
  using T = TypeParam;
  const auto c = stencil::poisson_coefficients<T>(0.1, 0.12, 0.09);
  Field<T, 3> u(points, 1, MemorySpace::host), f(points, 1, MemorySpace::host);
  fill(u, wiggle);
  fill(f, [](double i, double j, double k) { return i - j + 2 * k; });
  const Field<T, 3> before = [&] {
    Field<T, 3> b(points, 1, MemorySpace::host);
    b.copy_from(u);
    return b;
  }();
  mg::red_black_gauss_seidel_sweep(u, f, interior, 0, c, nullptr);
  for (auto k = points.lo[2]; k <= points.hi[2]; ++k)
    for (auto j = points.lo[1]; j <= points.hi[1]; ++j)
      for (auto i = points.lo[0]; i <= points.hi[0]; ++i) {
        const bool red_interior = interior.contains(Box<3>{{i, j, k}, {i, j, k}}) && (i + j + k) % 2 == 0;
        EXPECT_EQ(u(i, j, k) != before(i, j, k), red_interior) << i << ' ' << j << ' ' << k;
      }

  // Two boxes that split x at an odd index sweep exactly like their union.
  Field<T, 3> split(points, 1, MemorySpace::host);
  split.copy_from(before);
  Box<3> left = interior, right = interior;
  left.hi[0] = 4;
  right.lo[0] = 5;
  for (int colour : {0, 1}) {
    mg::red_black_gauss_seidel_sweep(split, f, right, colour, c, nullptr);
    mg::red_black_gauss_seidel_sweep(split, f, left, colour, c, nullptr);
  }
  mg::red_black_gauss_seidel_sweep(u, f, interior, 1, c, nullptr);
  for (auto k = points.lo[2]; k <= points.hi[2]; ++k)
    for (auto j = points.lo[1]; j <= points.hi[1]; ++j)
      for (auto i = points.lo[0]; i <= points.hi[0]; ++i) ASSERT_EQ(split(i, j, k), u(i, j, k)) << i << ' ' << j << ' ' << k;
}

TYPED_TEST(MultigridSmoother, SmoothersReduceTheResidualAndFullWeightJacobiIsJacobi) {
  using T = TypeParam;
  const auto c = stencil::poisson_coefficients<T>(0.1, 0.1, 0.1);
  Field<T, 3> u(points, 1, MemorySpace::host), v(points, 1, MemorySpace::host), f(points, 1, MemorySpace::host);
  Field<T, 3> jacobi(points, 1, MemorySpace::host);
  fill(u, wiggle);
  fill(f, [](double i, double, double) { return 0.5 * i; });
  v.copy_from(u);
  jacobi.copy_from(u);
  mg::weighted_jacobi_sweep(u, v, f, interior, c, T(1), nullptr);
  stencil::jacobi_sweep(u, jacobi, f, interior, c, {}, nullptr);
  for (auto k = interior.lo[2]; k <= interior.hi[2]; ++k)
    for (auto j = interior.lo[1]; j <= interior.hi[1]; ++j)
      for (auto i = interior.lo[0]; i <= interior.hi[0]; ++i)
        ASSERT_NEAR(v(i, j, k), jacobi(i, j, k), 8 * std::numeric_limits<T>::epsilon() * (1 + std::abs(jacobi(i, j, k))));

  const double start = residual_norm(u, f, c);
  for (int s = 0; s < 3; ++s) {
    mg::weighted_jacobi_sweep(u, v, f, interior, c, T(6.0 / 7.0), nullptr);
    mg::weighted_jacobi_sweep(v, u, f, interior, c, T(6.0 / 7.0), nullptr);
  }
  const double after_jacobi = residual_norm(u, f, c);
  EXPECT_LT(after_jacobi, 0.5 * start);
  for (int s = 0; s < 3; ++s)
    for (int colour : {0, 1}) mg::red_black_gauss_seidel_sweep(u, f, interior, colour, c, nullptr);
  EXPECT_LT(residual_norm(u, f, c), 0.5 * after_jacobi);
}

TYPED_TEST(MultigridSmoother, ResidualAndOperatorOnAnExactQuadratic) {
  using T = TypeParam;
  // u = i^2 + j k in index units with unit spacing: A u = 2.
  const auto c = stencil::poisson_coefficients<T>(1, 1, 1);
  Field<T, 3> u(points, 2, MemorySpace::host), f(points, 1, MemorySpace::host), r(points, 0, MemorySpace::host);
  fill(u, [](double i, double j, double k) { return i * i + j * k; });
  fill(f, [](double, double, double) { return 2; });
  mg::residual(u, f, r, interior, c, nullptr);
  mg::apply_laplacian(u, f, interior, c, nullptr);
  for (auto k = interior.lo[2]; k <= interior.hi[2]; ++k)
    for (auto j = interior.lo[1]; j <= interior.hi[1]; ++j)
      for (auto i = interior.lo[0]; i <= interior.hi[0]; ++i) {
        ASSERT_EQ(r(i, j, k), T(0));
        ASSERT_EQ(f(i, j, k), T(2));
      }
  EXPECT_THROW(mg::residual(r, f, u, points, c, nullptr), gridflow::Error) << "r has no ghosts beyond its boundary points";
}

TYPED_TEST(MultigridSmoother, VectorOperationsAcrossLayouts) {
  using T = TypeParam;
  Field<T, 3> x(points, 1, MemorySpace::host), y(points, 3, MemorySpace::host);
  fill(x, [](double i, double j, double k) { return i + 2 * j - k; });
  fill(y, [](double, double j, double) { return j; });
  EXPECT_EQ(mg::dot(x, y, interior, nullptr), [&] {
    double s = 0;
    for (auto k = interior.lo[2]; k <= interior.hi[2]; ++k)
      for (auto j = interior.lo[1]; j <= interior.hi[1]; ++j)
        for (auto i = interior.lo[0]; i <= interior.hi[0]; ++i) s += double(i + 2 * j - k) * j;
    return s;
  }());
  mg::axpy(T(2), x, y, interior, nullptr);  // y = j + 2 x
  mg::xpby(x, T(0.5), y, interior, nullptr);  // y = x + j/2 + x
  mg::copy(y, x, points, nullptr);
  mg::fill_zero(y, nullptr);
  EXPECT_EQ(y(3, 3, 3), T(0));
  EXPECT_EQ(x(3, 4, 5), T(2 * (3 + 8 - 5) + 2));
  EXPECT_EQ(x(0, 4, 5), T(4)) << "outside the interior y kept its values, and the copy took them";
}
