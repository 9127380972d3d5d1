// The memory estimates a run is checked against before it allocates: a field's bytes are exactly
// what mesh::Field allocates, and each solver's estimate counts its arrays in those units.
#include <gtest/gtest.h>

#include "app/run/memory_check.hpp"
#include "mesh/field.hpp"
#include "solver/heat2d_config.hpp"
#include "solver/memory_need.hpp"
#include "solver/poisson3d_config.hpp"

namespace {

using gridflow::kernels::core::Precision;
using gridflow::mesh::Box;
using gridflow::mesh::Field;
using gridflow::mesh::MemorySpace;
namespace solver = gridflow::solver;

template <class T>
Precision precision_of() {
  return sizeof(T) == 4 ? Precision::float32 : Precision::float64;
}

template <class T>
class FieldBytes : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(FieldBytes, Precisions);

TYPED_TEST(FieldBytes, AreWhatAFieldAllocates) {
  for (int ghost : {0, 1, 2, 3, 5, 17, 33}) {
    for (const Box<2>& b : {Box<2>{{0, 0}, {0, 0}}, Box<2>{{3, -2}, {40, 17}}, Box<2>{{0, 0}, {127, 3}}}) {
      const Field<TypeParam, 2> f(b, ghost, MemorySpace::host);
      EXPECT_EQ(solver::field_bytes(b, ghost, precision_of<TypeParam>()), static_cast<double>(f.allocated_bytes()))
          << "ghost " << ghost;
    }
    const Box<3> b{{0, 1, 2}, {30, 7, 9}};
    const Field<TypeParam, 3> f(b, ghost, MemorySpace::host);
    EXPECT_EQ(solver::field_bytes(b, ghost, precision_of<TypeParam>()), static_cast<double>(f.allocated_bytes()));
  }
}

TEST(MemoryNeed, HeatCountsThreeHostFieldsOrTwoOnTheDevice) {
  solver::HeatConfig c;
  const Box<2> owned{{0, 0}, {1023, 1023}};
  const double field = solver::field_bytes(owned, 2, c.run.precision);
  const auto host = solver::heat_memory_need(c, owned, 2, MemorySpace::host);
  EXPECT_EQ(host.device_bytes, 0);
  EXPECT_GT(host.host_bytes, 3 * field + solver::runtime_host_bytes);
  EXPECT_LT(host.host_bytes, 3.1 * field + solver::runtime_host_bytes);  // the halo buffers are small
  const auto device = solver::heat_memory_need(c, owned, 2, MemorySpace::device);
  EXPECT_GT(device.device_bytes, 2 * field + solver::runtime_device_bytes);
  EXPECT_LT(device.device_bytes, 2.1 * field + solver::runtime_device_bytes);
  EXPECT_LT(device.host_bytes, 1.1 * field + solver::runtime_host_bytes);
  // float about halves it (rows are padded to 128 bytes: 32 floats, 16 doubles)
  c.run.precision = Precision::float32;
  EXPECT_NEAR(solver::heat_memory_need(c, owned, 2, MemorySpace::host).host_bytes - solver::runtime_host_bytes,
              (host.host_bytes - solver::runtime_host_bytes) / 2, 0.1 * field);
}

TEST(MemoryNeed, PoissonSolversInOrderOfTheirWorkArrays) {
  solver::PoissonConfig c;
  c.grid.n = {256, 256, 256};
  const Box<3> owned = c.grid.points();
  const double field = solver::field_bytes(owned, 1, c.run.precision);
  const auto need = [&](const std::string& name, int ranks = 1, MemorySpace space = MemorySpace::host) {
    c.solver = name;
    const auto n = solver::poisson_memory_need(c, owned, ranks, 1, space, false);
    return (space == MemorySpace::host ? n.host_bytes - solver::runtime_host_bytes
                                       : n.device_bytes - solver::runtime_device_bytes) / field;
  };
  // In fields of the finest level: u, f and the second iterate; then multigrid's u, f, r and
  // coarser levels (ghost 2 for its levels); CG-multigrid's copies and four CG vectors more.
  EXPECT_NEAR(need("jacobi"), 3, 0.1);
  EXPECT_NEAR(need("spectral"), 3, 0.1);  // the set-up's host copy of f is the peak
  c.multigrid.mixed_precision = false;
  EXPECT_NEAR(need("multigrid"), 5 + 3.0 / 7, 0.2);
  EXPECT_NEAR(need("cg-mg"), 9 + 3.0 / 7, 0.3);
  c.multigrid.smoother = "jacobi";
  EXPECT_NEAR(need("multigrid"), 6 + 4.0 / 7, 0.2);
  c.multigrid.smoother = "rbgs";
  // Mixed precision (the default): a float hierarchy beside the double one (finest r, coarser
  // u, f, r) and its finest correction and residual, each at half the bytes.
  c.multigrid.mixed_precision = true;
  EXPECT_NEAR(need("multigrid"), 5 + 3.0 / 7 + (3 + 3.0 / 7) / 2, 0.3);
  EXPECT_NEAR(need("cg-mg"), 9 + 3.0 / 7 + (3 + 3.0 / 7) / 2, 0.4);
  EXPECT_NEAR(need("jacobi", 1, MemorySpace::device), 3, 0.1);
  // On 4 ranks (owning the whole grid here, for the units): u and f, then the right-hand side,
  // two slabs and four redistributions' send and receive buffers of a quarter of the grid's
  // points each
  EXPECT_NEAR(need("spectral", 4), 2 + 11.0 / 4, 0.3);  // points, without the fields' ghosts and padding
}

TEST(MemoryNeed, HostMemoryAvailableIsKnownOnLinux) {
  const auto available = gridflow::app::host_memory_available();
  ASSERT_TRUE(available.has_value());
  EXPECT_GT(*available, 16.0 * 1024 * 1024);
}

}  // namespace
