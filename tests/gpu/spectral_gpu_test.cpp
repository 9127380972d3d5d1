// The CUDA side of the spectral solver against its host reference: the cuFFT DST-I (fold, cuFFT,
// warp-scan or walking unfold) against the FFTW one on every axis, in one batch and in several;
// the eigenvalue division and the Dirichlet lift bitwise against their host oracles; and the
// whole solver on device fields (transposes staged through pinned buffers over MPI_COMM_WORLD,
// and over NCCL where each rank has its own GPU) against the host solver on one rank.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>

#include "gpu_test_support.hpp"
#include "halo/gpu_binding.hpp"
#include "halo/transport.hpp"
#include "kernels/fft/dst1.hpp"
#include "kernels/fft/eigen_divide.hpp"
#include "kernels/stencil/dirichlet_lift.hpp"
#include "kernels/stencil/jacobi.hpp"
#include "spectral_test_support.hpp"

namespace {

using gridflow::mesh::Box;
using gridflow::mesh::Field;
using gridflow::mesh::Index;
using gridflow::mesh::MemorySpace;

template <class T>
class SpectralGpu : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(SpectralGpu, Precisions);


template <class T>
Field<T, 3> to_device(const Field<T, 3>& host) {
  Field<T, 3> d(host.owned(), host.ghost_width(), MemorySpace::device, host.label() + "_device");
  d.copy_from(host);
  return d;
}

template <class T>
Field<T, 3> to_host(const Field<T, 3>& device) {
  Field<T, 3> h(device.owned(), device.ghost_width(), MemorySpace::host, device.label() + "_host");
  h.copy_from(device);
  return h;
}

// Max |a - b| over the whole allocation's ghosted box.
template <class T>
double max_difference(const Field<T, 3>& a, const Field<T, 3>& b) {
  double d = 0;
  const auto g = a.ghosted();
  for (auto k = g.lo[2]; k <= g.hi[2]; ++k)
    for (auto j = g.lo[1]; j <= g.hi[1]; ++j)
      for (auto i = g.lo[0]; i <= g.hi[0]; ++i)
        d = std::max(d, std::abs(static_cast<double>(a(i, j, k)) - static_cast<double>(b(i, j, k))));
  return d;
}

}  // namespace

TYPED_TEST(SpectralGpu, CufftDstMatchesFftwDst) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  using T = TypeParam;
  const double tolerance = sizeof(T) == 4 ? 2e-6 : 1e-13;  // of N max|x|, the size of the outputs
  for (Index n : {2, 3, 8, 31, 64, 129, 1000})
    for (int axis = 0; axis < 3; ++axis)
      for (std::int64_t max_batch : {std::int64_t(1) << 24, 7 * n}) {  // one batch, then batches of 7 lines
        Box<3> box{{3, -2, 1}, {3 + 36, -2 + 4, 1 + 2}};  // 37 x 5 x 3 before the axis is resized
        box.hi[axis] = box.lo[axis] + n - 2;
        const auto x = gridflow::testing::random_field<T>(box, 2, static_cast<unsigned>(n + 17 * axis));
        Field<T, 3> host(box, 2, MemorySpace::host, "host");
        host.copy_from(x);
        auto device = to_device(x);
        gridflow::kernels::fft::Dst1Plan<T>(box, axis, MemorySpace::host, nullptr, max_batch).apply(host);
        gridflow::mesh::Stream stream;
        gridflow::kernels::fft::Dst1Plan<T> plan(box, axis, MemorySpace::device, stream.get(), max_batch);
        plan.apply(device);
        gridflow::mesh::synchronize(stream.get());
        EXPECT_LT(max_difference(host, to_host(device)), tolerance * static_cast<double>(n))
            << "N " << n << " axis " << axis << " batch " << plan.batch();
      }
}

TYPED_TEST(SpectralGpu, DivisionAndLiftMatchTheHostBitwise) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  using T = TypeParam;
  gridflow::mesh::Grid<3> grid;
  grid.n = {20, 15, 11};
  grid.length = {1.0, 0.7, 1.9};
  const Box<3> owned{{0, 3, 2}, {12, 15, 11}};  // touches three faces
  const auto interior = owned.intersect(grid.interior());
  const auto u = gridflow::testing::random_field<T>(owned, 1, 5u), f = gridflow::testing::random_field<T>(owned, 1, 6u);
  const auto k = gridflow::kernels::stencil::poisson_coefficients<T>(grid.spacing(0), grid.spacing(1), grid.spacing(2));
  Field<T, 3> b_host(interior, 0, MemorySpace::host, "b");
  auto b_device = to_device(b_host);
  gridflow::mesh::Stream stream;
  const auto u_device = to_device(u), f_device = to_device(f);  // alive until the lift has run
  gridflow::kernels::stencil::dirichlet_lift(u, f, interior, grid.n, k, b_host, nullptr);
  gridflow::kernels::stencil::dirichlet_lift(u_device, f_device, interior, grid.n, k, b_device, stream.get());
  gridflow::mesh::synchronize(stream.get());
  EXPECT_EQ(max_difference(b_host, to_host(b_device)), 0.0);

  const gridflow::kernels::fft::DirichletEigenvalues<T> on_host(grid, MemorySpace::host, nullptr),
      on_device(grid, MemorySpace::device, stream.get());
  gridflow::kernels::fft::divide_by_eigenvalues(b_host, interior, on_host.tables(), T(0.37), nullptr);
  gridflow::kernels::fft::divide_by_eigenvalues(b_device, interior, on_device.tables(), T(0.37), stream.get());
  gridflow::mesh::synchronize(stream.get());
  EXPECT_EQ(max_difference(b_host, to_host(b_device)), 0.0);
}

TYPED_TEST(SpectralGpu, SolverOnDeviceMatchesHost) {
  GRIDFLOW_REQUIRE_GPU();
  using T = TypeParam;
  const bool single = sizeof(T) == 4;
  const std::string precision = std::string("precision=") + (single ? "float" : "double");
  const double residual = single ? 1e-5 : 1e-12, agreement = single ? 1e-5 : 1e-13;
  const std::string tolerance = single ? "poisson.tolerance=1e-5" : "poisson.tolerance=1e-12";
  // A GPU per rank where there are enough, so the NCCL transposes run on a multi-GPU machine.
  gridflow::halo::bind_gpu_by_local_rank(MPI_COMM_WORLD, /*allow_sharing=*/true);
  const bool several = gridflow::testing::world_size() > 1;
  const std::string no_nccl = several ? gridflow::testing::nccl_unusable_reason(MPI_COMM_WORLD) : "";
  gridflow::testing::note_nccl_not_tested(no_nccl);
  for (const auto& deck : {gridflow::testing::spectral_sine_deck, gridflow::testing::spectral_polynomial_deck()}) {
    const auto c = gridflow::testing::poisson_config(deck, {precision, tolerance});
    const auto host = gridflow::testing::solve_gathered<T>(c, MPI_COMM_SELF);
    const auto device = gridflow::testing::solve_gathered<T>(c, MPI_COMM_WORLD, MemorySpace::device);
    EXPECT_TRUE(device.report.converged);
    EXPECT_LE(device.report.relative_residual, residual);
    EXPECT_LT(gridflow::testing::max_difference(host.u, device.u), agreement);
    // The transposes over NCCL move the same values as over MPI: the same bits come out.
    const auto transport = gridflow::halo::resolve_transport(gridflow::halo::TransportChoice::automatic,
                                                             MemorySpace::device, MPI_COMM_WORLD);
    EXPECT_EQ(transport == gridflow::halo::Transport::nccl, several && no_nccl.empty());
    if (transport == gridflow::halo::Transport::nccl) {
      const auto nccl = gridflow::testing::solve_gathered<T>(c, MPI_COMM_WORLD, MemorySpace::device, transport);
      EXPECT_EQ(gridflow::testing::max_difference(device.u, nccl.u), 0.0);
    }
  }
}
