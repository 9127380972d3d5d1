// The dense coarsest-level solve: its inverse times the 7-point operator is the identity, and
// applying it to A u (zero Dirichlet values) gives u back, on an anisotropic box.
#include <gtest/gtest.h>

#include <cmath>

#include "kernels/multigrid/dense_solve.hpp"
#include "kernels/multigrid/residual.hpp"
#include "kernels/stencil/jacobi.hpp"

namespace {

using gridflow::mesh::Box;
using gridflow::mesh::Field;
using gridflow::mesh::MemorySpace;
namespace mg = gridflow::kernels::multigrid;
namespace stencil = gridflow::kernels::stencil;

const Box<3> points{{0, 0, 0}, {5, 4, 7}};  // 4 x 3 x 6 interior points
const Box<3> interior = points.grow(-1);

}  // namespace

TEST(MultigridDenseSolve, InverseRecoversTheFieldFromItsLaplacian) {
  const auto k = stencil::poisson_coefficients<double>(0.5, 0.125, 0.25);
  const auto inverse = mg::dense_inverse(interior, k);
  ASSERT_EQ(inverse.size(), static_cast<std::size_t>(interior.size() * interior.size()));
  Field<double, 3> u(points, 1, MemorySpace::host, "u"), f(points, 1, MemorySpace::host, "f"), back(points, 1, MemorySpace::host, "back");
  for (auto kk = interior.lo[2]; kk <= interior.hi[2]; ++kk)
    for (auto j = interior.lo[1]; j <= interior.hi[1]; ++j)
      for (auto i = interior.lo[0]; i <= interior.hi[0]; ++i) u(i, j, kk) = std::sin(1.3 * i + 0.7 * j * j - 0.4 * kk);
  mg::apply_laplacian(u, f, interior, k, nullptr);
  mg::apply_dense_inverse(inverse.data(), f, back, interior, nullptr);
  for (auto kk = interior.lo[2]; kk <= interior.hi[2]; ++kk)
    for (auto j = interior.lo[1]; j <= interior.hi[1]; ++j)
      for (auto i = interior.lo[0]; i <= interior.hi[0]; ++i) ASSERT_NEAR(back(i, j, kk), u(i, j, kk), 1e-12) << i << ' ' << j << ' ' << kk;
  EXPECT_EQ(back(0, 0, 0), 0.0) << "points outside the box are not written";
  const auto n = static_cast<std::size_t>(interior.size());
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t q = 0; q < r; ++q) ASSERT_NEAR(inverse[r * n + q], inverse[q * n + r], 1e-14) << "the inverse is symmetric";
}

TEST(MultigridDenseSolve, RefusesLargeLevels) {
  const Box<3> big{{1, 1, 1}, {9, 9, 9}};  // 729 points
  EXPECT_THROW(mg::dense_inverse(big, gridflow::kernels::stencil::PoissonCoefficients<double>{1, 1, 1, 1.0 / 6}), gridflow::Error);
}
