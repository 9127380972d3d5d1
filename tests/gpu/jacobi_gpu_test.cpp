// The CUDA Jacobi variants against the host oracle: every launch configuration (block shape,
// z-cells per thread, shared tile or L1, x-cells per vector) bitwise for the sweep, the fused and the stand-alone
// residual to summation-order rounding, each with the same bits on every run; and the Jacobi solver on the device against the host.
#include <gtest/gtest.h>

#include <cmath>

#include "gpu_test_support.hpp"
#include "kernels/stencil/jacobi.hpp"
#include "poisson_test_support.hpp"
#include "autotune/kernel_spaces.hpp"

namespace {
template <class T>
class JacobiGpu : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(JacobiGpu, Precisions);
}  // namespace

TYPED_TEST(JacobiGpu, EveryLaunchConfigurationMatchesTheOracle) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
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
  const mesh::Box<3> norm{{3, 2, 1}, {60, 40, 30}};
  const double host_residual = kernels::stencil::residual_norm_squared(in, f, norm, coeff, nullptr);
  mesh::Stream stream;  // copy_from waits for every stream, so the results are in before they are read
  mesh::Field<T, 3> d_in(owned, 1, mesh::MemorySpace::device), d_out(owned, 1, mesh::MemorySpace::device),
      d_f(owned, 1, mesh::MemorySpace::device);
  d_in.copy_from(in);
  d_f.copy_from(f);
  const double d_residual = kernels::stencil::residual_norm_squared(d_in, d_f, norm, coeff, stream.get());
  EXPECT_NEAR(d_residual, host_residual, 1e-10 * host_residual);
  auto differences = [&] {
    got.copy_from(d_out);
    std::size_t differ = 0;
    for (auto k = g.lo[2]; k <= g.hi[2]; ++k)
      for (auto j = g.lo[1]; j <= g.hi[1]; ++j)
        for (auto i = g.lo[0]; i <= g.hi[0]; ++i) differ += got(i, j, k) != expect(i, j, k);
    return differ;
  };
  // Update boxes whose first x-cell sits 1, 0 and 3 values past an aligned address, so the vector
  // variants meet every lead and a ragged end.
  const mesh::Box<3> updates[] = {{{1, 1, 1}, {69, 44, 36}}, {{0, 0, 0}, {70, 45, 37}}, {{3, 1, 1}, {66, 44, 36}}};
  int tried = 0, cannot_launch = 0;
  for (const auto& update : updates) {
    expect.copy_from(in);
    const double host_sum = kernels::stencil::jacobi_sweep_with_residual(in, expect, f, update, norm, coeff, {}, nullptr);
    EXPECT_NEAR(host_sum, host_residual, 1e-12 * host_residual);
    for (const auto& c : autotune::jacobi_cuda_space(sizeof(T)).enumerate()) {
      const auto p = autotune::jacobi_cuda_params(c);
      d_out.copy_from(in);
      double sum = 0;
      try {
        sum = kernels::stencil::jacobi_sweep_with_residual(d_in, d_out, d_f, update, norm, coeff, p, stream.get());
      } catch (const Error& e) {
        // Only register-heavy vector variants in large blocks may be refused, and with a reason.
        EXPECT_GT(p.cells_x, 1) << e.what();
        EXPECT_GE(p.block_x * p.block_y, 512) << e.what();
        EXPECT_NE(std::string(e.what()).find("cannot launch"), std::string::npos) << e.what();
        ++cannot_launch;
        continue;
      }
      ++tried;
      EXPECT_NEAR(sum, host_residual, 1e-10 * host_residual) << p << " on " << update;
      EXPECT_EQ(differences(), 0u) << p << " on " << update;
      d_out.copy_from(in);
      kernels::stencil::jacobi_sweep(d_in, d_out, d_f, update, coeff, p, stream.get());  // the plain launch too
      EXPECT_EQ(differences(), 0u) << p << " on " << update << " (without the residual)";
    }
  }
  EXPECT_GT(tried, 3 * 250);
  EXPECT_LT(cannot_launch, tried / 4);
}

// Block sums land in a fixed order, so a residual has the same bits on every run (with one
// atomic per block, as before, its last bits changed from run to run on grids this size).
TYPED_TEST(JacobiGpu, ResidualHasTheSameBitsOnEveryRun) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  using T = TypeParam;
  using namespace gridflow;
  const mesh::Box<3> owned{{0, 0, 0}, {191, 160, 150}};
  mesh::Field<T, 3> in(owned, 1, mesh::MemorySpace::host), f(owned, 1, mesh::MemorySpace::host);
  const auto g = in.ghosted();
  for (auto k = g.lo[2]; k <= g.hi[2]; ++k)
    for (auto j = g.lo[1]; j <= g.hi[1]; ++j)
      for (auto i = g.lo[0]; i <= g.hi[0]; ++i) {
        in(i, j, k) = static_cast<T>(std::sin(0.37 * i + 0.11 * k) * std::cos(0.23 * j));
        f(i, j, k) = static_cast<T>(std::cos(0.13 * i + 0.07 * j * k));
      }
  const auto coeff = kernels::stencil::poisson_coefficients<T>(0.1, 0.12, 0.09);
  mesh::Stream stream;
  mesh::Field<T, 3> d_in(owned, 1, mesh::MemorySpace::device), d_out(owned, 1, mesh::MemorySpace::device),
      d_f(owned, 1, mesh::MemorySpace::device);
  d_in.copy_from(in);
  d_f.copy_from(f);
  const double first = kernels::stencil::residual_norm_squared(d_in, d_f, owned, coeff, stream.get());
  for (int run = 0; run < 20; ++run)
    EXPECT_EQ(kernels::stencil::residual_norm_squared(d_in, d_f, owned, coeff, stream.get()), first) << "run " << run;
  int shapes = 0;
  for (const auto& c : autotune::jacobi_cuda_space(sizeof(T)).enumerate()) {
    if (shapes++ % 40 != 0) continue;  // a spread of launch shapes, each against itself
    const auto p = autotune::jacobi_cuda_params(c);
    double sum = 0;
    try {
      sum = kernels::stencil::jacobi_sweep_with_residual(d_in, d_out, d_f, owned, owned, coeff, p, stream.get());
    } catch (const Error&) {
      continue;  // refused launch shapes are checked above
    }
    for (int run = 0; run < 5; ++run)
      EXPECT_EQ(kernels::stencil::jacobi_sweep_with_residual(d_in, d_out, d_f, owned, owned, coeff, p, stream.get()), sum)
          << p << ", run " << run;
  }
}

TYPED_TEST(JacobiGpu, SolverOnDeviceMatchesHost) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
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
