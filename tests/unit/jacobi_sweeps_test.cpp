// jacobi_sweeps on the host (the oracle of the fused CUDA kernel): k sweeps in one call equal k
// sweeps taken one by one on whole buffers, bitwise, on one rank's interior and on a deep-halo
// cycle's shrinking boxes; the points outside the last box keep their values.
#include <gtest/gtest.h>

#include "jacobi_sweeps_test_support.hpp"
#include "mesh/check.hpp"

namespace {
template <class T>
class JacobiSweeps : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(JacobiSweeps, Precisions);
}  // namespace

TYPED_TEST(JacobiSweeps, SweepsInOneCallEqualSweepsOneByOne) {
  using T = TypeParam;
  using namespace gridflow;
  const gridflow::testing::JacobiSweepsSetup setup;
  const auto host = mesh::MemorySpace::host;
  mesh::Field<T, 3> in(setup.owned, setup.ghost, host), f(setup.owned, setup.ghost, host), before(setup.owned, setup.ghost, host),
      got(setup.owned, setup.ghost, host);
  gridflow::testing::fill_jacobi_fields(in, f);
  gridflow::testing::fill_jacobi_fields(before, got);  // out's earlier contents: not in's
  const auto coeff = kernels::stencil::poisson_coefficients<T>(0.1, 0.12, 0.09);
  for (const auto& c : setup.cases)
    for (int sweeps = 1; sweeps <= setup.ghost; ++sweeps) {
      const auto expect = gridflow::testing::sweeps_one_by_one(in, f, sweeps, c, coeff);
      got.copy_from(before);
      kernels::stencil::jacobi_sweeps(in, got, f, sweeps, c.update, c.active, coeff, {}, nullptr);
      EXPECT_EQ(gridflow::testing::sweeps_differences(got, expect, before, c.update), 0u) << c.name << ", " << sweeps << " sweeps";
    }
}

TYPED_TEST(JacobiSweeps, RefusesBoxesItCannotSweep) {
  using T = TypeParam;
  using namespace gridflow;
  const gridflow::testing::JacobiSweepsSetup setup;
  const auto host = mesh::MemorySpace::host;
  mesh::Field<T, 3> in(setup.owned, setup.ghost, host), f(setup.owned, setup.ghost, host), out(setup.owned, setup.ghost, host);
  const auto coeff = kernels::stencil::poisson_coefficients<T>(0.1, 0.12, 0.09);
  const auto& corner = setup.cases[1];
  // The first of 9 sweeps would need a ninth ghost layer.
  EXPECT_THROW(kernels::stencil::jacobi_sweeps(in, out, f, 9, corner.update, corner.active, coeff, {}, nullptr), Error);
  // An update box outside the active box.
  EXPECT_THROW(kernels::stencil::jacobi_sweeps(in, out, f, 2, corner.update, setup.cases[0].active, coeff, {}, nullptr), Error);
  EXPECT_THROW(kernels::stencil::jacobi_sweeps(in, out, f, 0, corner.update, corner.active, coeff, {}, nullptr), Error);
}
