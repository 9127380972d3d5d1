// The CUDA Jacobi variants against the host oracle: every launch configuration (block shape,
// z-cells per thread, shared tile or L1) bitwise for the sweep, the fused and the stand-alone
// residual to summation-order rounding; and the Jacobi solver on the device against the host.
#include <gtest/gtest.h>

#include <cmath>

#include "gpu_test_support.hpp"
#include "kernels/stencil/jacobi.hpp"
#include "poisson_test_support.hpp"

namespace {
template <class T>
class JacobiGpu : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(JacobiGpu, Precisions);
}  // namespace

TYPED_TEST(JacobiGpu, EveryLaunchConfigurationMatchesTheOracle) {
  GRIDFLOW_REQUIRE_GPU();
  using T = TypeParam;
  using namespace gridflow;
  const mesh::Box<3> owned{{0, 0, 0}, {70, 45, 37}};
  mesh::Field<T, 3> in(owned, 1, mesh::MemorySpace::host), f(owned, 1, mesh::MemorySpace::host),
      expect(owned, 1, mesh::MemorySpace::host), got(owned, 1, mesh::MemorySpace::host);
  const auto g = in.ghosted();
  for (auto k = g.lo[2]; k <= g.hi[2]; ++k)
    for (auto j = g.lo[1]; j <= g.hi[1]; ++j)
      for (auto i = g.lo[0]; i <= g.hi[0]; ++i) {
        in(i, j, k) = static_cast<T>(std::sin(0.3 * i) * std::cos(0.2 * j) + 0.01 * k);
        f(i, j, k) = static_cast<T>(std::cos(0.1 * i + 0.05 * j * k));
      }
  const auto coeff = kernels::stencil::poisson_coefficients<T>(0.1, 0.12, 0.09);
  const mesh::Box<3> update{{1, 1, 1}, {69, 44, 36}}, norm{{3, 2, 1}, {60, 40, 30}};
  expect.copy_from(in);
  const double host_sum = kernels::stencil::jacobi_sweep_with_residual(in, expect, f, update, norm, coeff);
  const double host_residual = kernels::stencil::residual_norm_squared(in, f, norm, coeff);
  EXPECT_NEAR(host_sum, host_residual, 1e-12 * host_residual);

  mesh::Field<T, 3> d_in(owned, 1, mesh::MemorySpace::device), d_out(owned, 1, mesh::MemorySpace::device),
      d_f(owned, 1, mesh::MemorySpace::device);
  d_in.copy_from(in);
  d_f.copy_from(f);
  const double d_residual = kernels::stencil::residual_norm_squared(d_in, d_f, norm, coeff);
  EXPECT_NEAR(d_residual, host_residual, 1e-10 * host_residual);
  int tried = 0;
  for (int bx : {32, 64, 128})
    for (int by : {1, 2, 4, 8})
      for (int cz : {1, 2, 4, 8, 16})
        for (bool smem : {false, true}) {
          const kernels::stencil::JacobiCudaParams p{bx, by, cz, smem};
          if (!p.valid()) continue;
          ++tried;
          d_out.copy_from(in);
          const double sum = kernels::stencil::jacobi_sweep_with_residual(d_in, d_out, d_f, update, norm, coeff, p, nullptr);
          EXPECT_NEAR(sum, host_residual, 1e-10 * host_residual) << p;
          got.copy_from(d_out);
          std::size_t differ = 0;
          for (auto k = g.lo[2]; k <= g.hi[2]; ++k)
            for (auto j = g.lo[1]; j <= g.hi[1]; ++j)
              for (auto i = g.lo[0]; i <= g.hi[0]; ++i) differ += got(i, j, k) != expect(i, j, k);
          EXPECT_EQ(differ, 0u) << p;
          kernels::stencil::jacobi_sweep(d_in, d_out, d_f, update, coeff, p, nullptr);  // the plain launch too
          got.copy_from(d_out);
          differ = 0;
          for (auto k = g.lo[2]; k <= g.hi[2]; ++k)
            for (auto j = g.lo[1]; j <= g.hi[1]; ++j)
              for (auto i = g.lo[0]; i <= g.hi[0]; ++i) differ += got(i, j, k) != expect(i, j, k);
          EXPECT_EQ(differ, 0u) << p << " (without the residual)";
        }
  EXPECT_GT(tried, 100);
}

TYPED_TEST(JacobiGpu, SolverOnDeviceMatchesHost) {
  GRIDFLOW_REQUIRE_GPU();
  using T = TypeParam;
  const std::string precision = std::string("precision=") + (sizeof(T) == 4 ? "float" : "double");
  const auto c = gridflow::testing::poisson_config(
      "solver = 'jacobi'\n[grid]\nn = [33, 20, 27]\n[poisson]\ntolerance = 1e-14\nmax_iterations = 60\ncheck_every = 20\n"
      "rhs = 'sin(3*x) + y*z'\n[poisson.boundary]\nx_low = 'y'\n",
      {precision});
  const auto host = gridflow::testing::solve_gathered<T>(c, MPI_COMM_SELF, gridflow::mesh::MemorySpace::host);
  const auto device = gridflow::testing::solve_gathered<T>(c, MPI_COMM_SELF, gridflow::mesh::MemorySpace::device);
  std::size_t differ = 0;
  for (std::size_t q = 0; q < host.u.size(); ++q) differ += host.u[q] != device.u[q];
  EXPECT_EQ(differ, 0u);
  ASSERT_EQ(host.report.history.size(), device.report.history.size());
  for (std::size_t h = 0; h < host.report.history.size(); ++h)
    EXPECT_NEAR(device.report.history[h].relative_residual, host.report.history[h].relative_residual,
                1e-10 * host.report.history[h].relative_residual);
}
