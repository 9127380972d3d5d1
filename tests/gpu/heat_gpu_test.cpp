// The CUDA heat kernel against the host oracle: every launch configuration, both precisions,
// after 100 steps with moving boundaries. The two share the point function and neither side
// contracts to FMA, so they must agree bitwise.
#include <gtest/gtest.h>

#include "gpu_test_support.hpp"
#include "heat_test_support.hpp"
#include "kernels/stencil/heat.hpp"

namespace {

template <class T>
class HeatGpu : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(HeatGpu, Precisions);

const std::string deck =
    "[grid]\nn = [301, 173]\nlength = [1.0, 0.6]\n[heat]\na = 0.8\nsteps = 100\n"
    "initial = 'sin(3*x) * cos(2*y) + x*y'\n"
    "[heat.boundary]\nleft = 'sin(50*t) * y'\nright = 'cos(y + t)'\nbottom = 'x * t'\ntop = '1 - x'\n";

}  // namespace

TYPED_TEST(HeatGpu, SolverOnDeviceMatchesHostOracleBitwise) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  using T = TypeParam;
  for (int ghost : {1, 3}) {
    const auto config = gridflow::testing::heat_config(deck, {"halo.width=" + std::to_string(ghost),
                                                              std::string("precision=") + (sizeof(T) == 4 ? "float" : "double")});
    const auto host = gridflow::testing::run_heat_gathered<T>(config, MPI_COMM_SELF, gridflow::mesh::MemorySpace::host);
    const auto device = gridflow::testing::run_heat_gathered<T>(config, MPI_COMM_SELF, gridflow::mesh::MemorySpace::device);
    ASSERT_EQ(host.size(), device.size());
    std::size_t differ = 0;
    for (std::size_t k = 0; k < host.size(); ++k) differ += host[k] != device[k];
    EXPECT_EQ(differ, 0u) << "points that differ between the host oracle and the CUDA solver";
  }
}

TYPED_TEST(HeatGpu, EveryLaunchConfigurationMatchesTheOracle) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  using T = TypeParam;
  using namespace gridflow;
  const mesh::Box<2> owned{{0, 0}, {517, 263}};
  mesh::Field<T, 2> in(owned, 2, mesh::MemorySpace::host), expect(owned, 2, mesh::MemorySpace::host);
  const auto g = in.ghosted();
  for (auto j = g.lo[1]; j <= g.hi[1]; ++j)
    for (auto i = g.lo[0]; i <= g.hi[0]; ++i) in(i, j) = static_cast<T>(std::sin(0.37 * i) * std::cos(0.11 * j) + 1e-3 * i);
  const kernels::stencil::HeatCoefficients<T> c{T(0.21), T(0.17)};
  const mesh::Box<2> update{{1, 1}, {516, 262}};
  expect.copy_from(in);
  kernels::stencil::heat_step_host(in, expect, update, c);

  mesh::Field<T, 2> d_in(owned, 2, mesh::MemorySpace::device), d_out(owned, 2, mesh::MemorySpace::device);
  mesh::Field<T, 2> got(owned, 2, mesh::MemorySpace::host);
  d_in.copy_from(in);
  mesh::Stream stream;  // copy_from waits for every stream, so the results are in before they are read
  int tried = 0;
  for (int bx : {32, 64, 128, 256})
    for (int by : {1, 2, 4, 8, 16})
      for (int cpt : {1, 2, 4, 8}) {
        const kernels::stencil::HeatCudaParams p{bx, by, cpt};
        if (!p.valid()) continue;
        ++tried;
        d_out.copy_from(in);  // points outside `update` must stay as they were
        kernels::stencil::heat_step(d_in, d_out, update, c, p, stream.get());
        got.copy_from(d_out);
        std::size_t differ = 0;
        for (auto j = g.lo[1]; j <= g.hi[1]; ++j)
          for (auto i = g.lo[0]; i <= g.hi[0]; ++i) differ += got(i, j) != expect(i, j);
        EXPECT_EQ(differ, 0u) << p;
      }
  EXPECT_GT(tried, 50);
}
