// The non-finite flag of the heat kernels and of the heat solver, on the host: a NaN planted at a
// known point, an overflow to infinity from finite values, a boundary expression that becomes NaN
// at a known time and an initial value that is NaN are each reported at their exact step and
// global point, and watching changes no value.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>

#include "heat_non_finite_test_support.hpp"
#include "heat_test_support.hpp"
#include "kernels/core/non_finite_flag.hpp"
#include "kernels/stencil/heat.hpp"

namespace {

using namespace gridflow;
using gridflow::testing::bits_differing;
using gridflow::testing::fill_smooth;
using gridflow::testing::grid_of;
using kernels::core::NonFiniteAt;
using kernels::core::NonFiniteFlag;
using kernels::core::no_non_finite;

void expect_at(const NonFiniteFlag& flag, std::int64_t step, std::int64_t i, std::int64_t j) {
  const std::uint64_t key = flag.read(nullptr);
  ASSERT_NE(key, no_non_finite);
  const NonFiniteAt at = flag.decode(key);
  EXPECT_EQ(at.step, step);
  EXPECT_EQ(at.i, i);
  EXPECT_EQ(at.j, j);
  EXPECT_EQ(at.k, 0);
}

TEST(NonFiniteFlag, KeysOrderByStepThenPointAndDecode) {
  mesh::Grid<3> g;
  g.n = {10, 20, 30};
  g.length = {1, 1, 1};
  NonFiniteFlag flag(g, mesh::MemorySpace::host);
  EXPECT_EQ(flag.read(nullptr), no_non_finite);
  flag.record_host(5, 10, 20, 30);  // the last point of step 5
  flag.record_host(6, 0, 0, 0);     // later step, lower point: not first
  const auto at = flag.decode(flag.read(nullptr));
  EXPECT_EQ(at.step, 5);
  EXPECT_EQ(at.i, 10);
  EXPECT_EQ(at.j, 20);
  EXPECT_EQ(at.k, 30);
  flag.record_host(5, 3, 4, 2);
  const auto lower = flag.decode(flag.read(nullptr));
  EXPECT_EQ(lower.step, 5);
  EXPECT_EQ(lower.i, 3);
  EXPECT_EQ(lower.j, 4);
  EXPECT_EQ(lower.k, 2);
  flag.assign(no_non_finite);
  EXPECT_EQ(flag.read(nullptr), no_non_finite);
}

template <class T>
class HeatNonFinite : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(HeatNonFinite, Precisions);

TYPED_TEST(HeatNonFinite, OneStepReportsThePlantedNaNsFirstNeighbourAndChangesNoValue) {
  using T = TypeParam;
  const auto grid = grid_of(63, 47);
  const mesh::Box<2> owned{{8, 5}, {40, 30}};
  mesh::Field<T, 2> in(owned, 2, mesh::MemorySpace::host), watched(owned, 2, mesh::MemorySpace::host),
      plain(owned, 2, mesh::MemorySpace::host);
  fill_smooth(in);
  in(20, 17) = std::numeric_limits<T>::quiet_NaN();
  const kernels::stencil::HeatCoefficients<T> c{T(0.2), T(0.15)};
  NonFiniteFlag flag(grid, mesh::MemorySpace::host);
  kernels::stencil::heat_step_host(in, watched, owned, c, flag.watch(12));
  kernels::stencil::heat_step_host(in, plain, owned, c);
  // (20, 16), (19, 17), (20, 17), (21, 17), (20, 18) turn NaN: the lowest index is the one below.
  expect_at(flag, 12, 20, 16);
  EXPECT_EQ(bits_differing(watched, plain, owned), 0u);
  EXPECT_TRUE(std::isnan(watched(20, 18)));

  NonFiniteFlag clean(grid, mesh::MemorySpace::host);
  fill_smooth(in);
  kernels::stencil::heat_step_host(in, watched, owned, c, clean.watch(3));
  EXPECT_EQ(clean.read(nullptr), no_non_finite);
}

TYPED_TEST(HeatNonFinite, AnOverflowOfFiniteValuesIsReported) {
  using T = TypeParam;
  const auto grid = grid_of(31, 31);
  const mesh::Box<2> owned{{1, 1}, {30, 30}};
  mesh::Field<T, 2> in(owned, 1, mesh::MemorySpace::host), out(owned, 1, mesh::MemorySpace::host);
  fill_smooth(in);
  const T big = std::numeric_limits<T>::max() / 2;
  in(9, 14) = big;  // w - 2c + e = -3 big at (9, 14): -inf, the row's first; +inf at (10, 14)
  in(11, 14) = big;
  in(10, 14) = -big;
  const kernels::stencil::HeatCoefficients<T> c{T(0.25), T(0.25)};
  NonFiniteFlag flag(grid, mesh::MemorySpace::host);
  kernels::stencil::heat_step_host(in, out, owned, c, flag.watch(1));
  EXPECT_TRUE(std::isinf(out(10, 14))) << out(10, 14);
  EXPECT_TRUE(std::isfinite(out(8, 14))) << out(8, 14);
  expect_at(flag, 1, 9, 14);
}

TYPED_TEST(HeatNonFinite, FusedStepsReportTheStepTheNaNReachesAPointTheyCompute) {
  using T = TypeParam;
  const auto grid = grid_of(99, 99);
  const mesh::Box<2> owned{{10, 10}, {40, 30}};
  mesh::Field<T, 2> in(owned, 4, mesh::MemorySpace::host), out(owned, 4, mesh::MemorySpace::host);
  fill_smooth(in);
  in(25, 7) = std::numeric_limits<T>::quiet_NaN();  // a ghost 3 below the owned box
  const kernels::stencil::HeatCoefficients<T> c{T(0.2), T(0.2)};
  NonFiniteFlag flag(grid, mesh::MemorySpace::host);
  // Three steps on the owned box: the first computes it grown by 2, so (25, 8) turns NaN at step 10.
  kernels::stencil::heat_steps(in, out, owned, grid.interior(), 3, c, {}, nullptr, flag.watch(10));
  expect_at(flag, 10, 25, 8);
  EXPECT_TRUE(std::isnan(out(25, 10)));  // three steps up: the owned box's first row
}

// The solver: a top boundary value that is NaN from t = (k + 1/2) dt on; the flag names step
// k + 1 and the top face's first point (left and right own the corners). Fused host steps too.
TYPED_TEST(HeatNonFinite, SolverReportsTheFirstStepOfANaNBoundaryValue) {
  using T = TypeParam;
  const std::string deck = "[grid]\nn = [40, 30]\nlength = [1.0, 0.75]\n[heat]\na = 0.5\nsteps = 60\ninitial = 'x^2'\n"
                           "[heat.boundary]\nleft = 'x^2 + 2*a*t'\nright = 'x^2 + 2*a*t'\nbottom = 'x^2 + 2*a*t'\n";
  const std::string precision = sizeof(T) == 4 ? "precision=float" : "precision=double";
  const double dt = gridflow::testing::heat_config(deck, {precision}).dt;
  const int k = 23;
  char when[64];
  std::snprintf(when, sizeof when, "%.17g", (k + 0.5) * dt);
  const auto config = gridflow::testing::heat_config(deck, {precision, std::string("heat.boundary.top=x + 0*sqrt(") + when + " - t)"});
  const mesh::Decomposition<2> d(config.grid, MPI_COMM_SELF, {1, 1}, 1);
  solver::HeatSolver<T> solver(config, d, mesh::MemorySpace::host, nullptr, halo::Transport::mpi);
  solver.advance(k);
  EXPECT_EQ(solver.non_finite().read(nullptr), no_non_finite);
  solver.advance(5);
  expect_at(solver.non_finite(), k + 1, 1, 30);
}

TYPED_TEST(HeatNonFinite, SolverReportsANaNInitialValueAtStepZero) {
  using T = TypeParam;
  const auto config = gridflow::testing::heat_config(
      "[grid]\nn = [40, 30]\n[heat]\na = 1\nsteps = 4\ninitial = 'x + 1/(x - 0.5)'\n",  // infinite at x = 0.5: i = 20
      {sizeof(T) == 4 ? "precision=float" : "precision=double"});
  const mesh::Decomposition<2> d(config.grid, MPI_COMM_SELF, {1, 1}, 1);
  solver::HeatSolver<T> solver(config, d, mesh::MemorySpace::host, nullptr, halo::Transport::mpi);
  expect_at(solver.non_finite(), 0, 20, 1);  // the boundary row j = 0 takes the boundary value 0
}

TYPED_TEST(HeatNonFinite, AnUnstableRunOverflowsAtTheSameStepAndPointWithAnyGhostWidth) {
  using T = TypeParam;
  auto config = gridflow::testing::heat_config(
      "[grid]\nn = [61, 43]\n[heat]\na = 0.8\nsteps = 700\ninitial = 'sin(3*x) * cos(2*y) + x*y'\n"
      "[heat.boundary]\nleft = 'y'\nright = 'cos(y)'\nbottom = 'x^2'\ntop = '1 - x'\n",
      {sizeof(T) == 4 ? "precision=float" : "precision=double"});
  config.dt = 3 * config.dt_stable;  // the checkerboard mode grows 5x a step until it overflows
  std::uint64_t first[2];
  for (int width : {1, 3}) {
    const mesh::Decomposition<2> d(config.grid, MPI_COMM_SELF, {1, 1}, width);
    solver::HeatSolver<T> solver(config, d, mesh::MemorySpace::host, nullptr, halo::Transport::mpi, {}, width);
    solver.advance(config.steps);
    first[width / 2] = solver.non_finite().read(nullptr);
  }
  ASSERT_NE(first[0], no_non_finite);
  EXPECT_EQ(first[0], first[1]);
  const NonFiniteFlag keys(config.grid, mesh::MemorySpace::host);
  const auto at = keys.decode(first[0]);
  EXPECT_GT(at.step, 20) << "finite values overflow after many steps, not at once";
  EXPECT_LT(at.step, 700);
}

}  // namespace
