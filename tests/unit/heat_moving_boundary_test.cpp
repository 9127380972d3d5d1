// Fused host heat steps (the reference the CUDA kernels are held to) with boundary values that move
// in time: k fused steps, given the boundary values of their inner steps by DirichletBoundary::ring,
// equal k single steps that set the boundary points after each, bitwise, on the whole grid and on
// the boxes a rank with deep ghosts writes (in the grid's corner, and inside it).
#include <gtest/gtest.h>

#include "heat_moving_boundary_test_support.hpp"

namespace {

using namespace gridflow;

template <class T>
class HeatMovingBoundary : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(HeatMovingBoundary, Precisions);

}  // namespace

TYPED_TEST(HeatMovingBoundary, FusedHostStepsEqualSingleStepsBitwise) {
  using T = TypeParam;
  gridflow::testing::MovingBoundaryCase<T> cases;
  const auto& config = cases.config();
  solver::DirichletBoundary<T, 2> boundary(config.grid, config.boundary, mesh::MemorySpace::host, nullptr);
  const int ghost = 16;
  const mesh::Box<2> corner{{0, 0}, {60, 40}}, inside{{100, 50}, {180, 120}};
  for (const int k : {1, 2, 3, 4, 8, 16}) {
    const auto expect = cases.chain(k);
    for (const auto& [owned, g] : {std::pair{cases.points(), 1}, {corner, ghost}, {inside, ghost}}) {
      const auto update = g == 1 ? cases.interior() : owned.grow(g - k).intersect(cases.interior());
      const auto in = cases.start(owned, g);
      mesh::Field<T, 2> out(owned, g, mesh::MemorySpace::host);
      const auto ring = boundary.ring(update.grow(k).intersect(cases.points()), 0, config.dt, k);
      EXPECT_EQ(ring.moving(), k > 1);
      kernels::stencil::heat_steps(in, out, update, cases.interior(), k, cases.coefficients(), {}, nullptr, {}, ring);
      EXPECT_EQ(gridflow::testing::points_differing(out, expect, update), 0u) << k << " steps on " << owned;
    }
  }
}

TYPED_TEST(HeatMovingBoundary, WithoutTheRingTheBoundaryKeepsItsValuesAndTheResultDiffers) {
  using T = TypeParam;
  gridflow::testing::MovingBoundaryCase<T> cases;
  const auto in = cases.start(cases.points(), 1);
  mesh::Field<T, 2> out(cases.points(), 1, mesh::MemorySpace::host);
  kernels::stencil::heat_steps(in, out, cases.interior(), cases.interior(), 4, cases.coefficients(), {}, nullptr);
  EXPECT_GT(gridflow::testing::points_differing(out, cases.chain(4), cases.interior()), 0u)
      << "the deck's boundary must move enough within 4 steps to tell the two apart";
}
