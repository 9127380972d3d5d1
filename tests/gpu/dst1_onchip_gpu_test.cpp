// launch_dst1_lines_onchip against the host Dst1Plan (FFTW) on the same field: every axis of boxes
// 31^3, 63 x 127 x 255 and 511^3 (transform lengths 32 to 512), a box strictly inside the owned
// one, and every radix at one size. The whole allocation is compared, ghosts included, so a write
// outside the box fails: relative L2 error <= 1e-5 (float), 1e-12 (double).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "gpu_test_support.hpp"
#include "kernels/fft/dst1.hpp"
#include "kernels/fft/dst1_onchip_cuda.hpp"
#include "kernels/fft/eigen_divide.hpp"
#include "mesh/check.hpp"
#include "mesh/device.hpp"
#include "mesh/field.hpp"
#include "mesh/grid.hpp"

#if GRIDFLOW_HAVE_CUDA

namespace {

namespace fft = gridflow::kernels::fft;
using gridflow::mesh::Box;
using gridflow::mesh::Field;
using gridflow::mesh::MemorySpace;

template <class T>
class Dst1OnChipGpu : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(Dst1OnChipGpu, Precisions);

template <class T>
constexpr double tolerance() {
  return sizeof(T) == 4 ? 1e-5 : 1e-12;
}

/// Values in [-1, 1) from a hash of the position: cheap for 10^8 points, different per point.
template <class T>
void fill(Field<T, 3>& f) {
  T* a = f.allocation();
  for (std::size_t i = 0; i < f.allocated_elements(); ++i) {
    std::uint64_t h = (i + 1) * 0x9E3779B97F4A7C15ull;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 32;
    a[i] = static_cast<T>(static_cast<double>(h >> 11) / 9007199254740992.0 * 2.0 - 1.0);
  }
}

template <class T>
double relative_l2(const Field<T, 3>& a, const Field<T, 3>& b) {
  long double d = 0, r = 0;
  for (std::size_t i = 0; i < a.allocated_elements(); ++i) {
    const long double x = a.allocation()[i], y = b.allocation()[i];
    d += (x - y) * (x - y);
    r += y * y;
  }
  return static_cast<double>(std::sqrt(d / r));
}

template <class T>
fft::BoxAddressing addressing(Field<T, 3>& f, const Box<3>& box) {
  return fft::box_addressing(f.view(), box);
}

/// Relative error of the on-chip DST-I of `box` along `axis` of a field owning `owned`.
template <class T>
double device_error(const Box<3>& owned, const Box<3>& box, int axis, const fft::FlowGraphTunables& tunables) {
  Field<T, 3> expected(owned, 1, MemorySpace::host, "expected");
  fill(expected);
  Field<T, 3> device(owned, 1, MemorySpace::device, "device");
  device.copy_from(expected);
  fft::Dst1Plan<T>(box, axis, MemorySpace::host, nullptr).apply(expected);

  gridflow::mesh::Stream stream;
  fft::launch_dst1_lines_onchip<T>(device.view().data, addressing(device, box), axis, tunables, stream.get());
  gridflow::mesh::synchronize(stream.get());
  Field<T, 3> got(owned, 1, MemorySpace::host, "got");
  got.copy_from(device);
  return relative_l2(got, expected);
}

TYPED_TEST(Dst1OnChipGpu, MatchesTheHostPlanOnEveryAxis) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  using T = TypeParam;
  for (const auto& box : {Box<3>{{0, 0, 0}, {30, 30, 30}}, Box<3>{{-3, 5, 1}, {59, 131, 255}}, Box<3>{{1, 1, 1}, {511, 511, 511}}})
    for (int axis = 0; axis < 3; ++axis)
      EXPECT_LE(device_error<T>(box, box, axis, {}), tolerance<T>())
          << "box " << box.extent(0) << " x " << box.extent(1) << " x " << box.extent(2) << " axis " << axis;
}

TYPED_TEST(Dst1OnChipGpu, BoxInsideTheOwnedBoxEveryRadixAndLinePairs) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  using T = TypeParam;
  const Box<3> owned{{0, 0, 0}, {40, 20, 70}}, box{{3, 2, 5}, {17, 16, 67}};  // 15 x 15 x 63
  for (int axis = 0; axis < 3; ++axis)
    for (int radix : {2, 4, 8, 16})
      for (int pairs : {0, 1, 3}) {
        fft::FlowGraphTunables t;
        t.radix = radix;
        t.lines_per_block = pairs;
        t.twiddle_table = radix != 4;
        EXPECT_LE(device_error<T>(owned, box, axis, t), tolerance<T>())
            << "axis " << axis << " radix " << radix << " pairs " << pairs;
      }
}

TYPED_TEST(Dst1OnChipGpu, UnsupportedLengthsThrowError) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  using T = TypeParam;
  Field<T, 3> f(Box<3>{{0, 0, 0}, {9, 4095, 2}}, 1, MemorySpace::device, "f");
  gridflow::mesh::Stream stream;
  EXPECT_THROW(fft::launch_dst1_lines_onchip<T>(f.view().data, addressing(f, f.owned()), 0, {}, stream.get()),
               gridflow::Error) << "N = 11";
  EXPECT_THROW(fft::launch_dst1_lines_onchip<T>(f.view().data, addressing(f, f.owned()), 1, {}, stream.get()),
               gridflow::Error) << "N = 4096";
  EXPECT_THROW(fft::launch_dst1_lines_onchip<T>(f.view().data, addressing(f, f.owned()), 3, {}, stream.get()),
               gridflow::Error) << "axis 3";
}

// The spectral solve's middle in one launch (launch_dst1_divide_dst1_onchip) against the three
// steps it replaces on the device (transform, divide_by_eigenvalues, transform), bit for bit over
// the whole allocation: every axis, interiors of grids whose line counts are odd (a block's last
// pair lacks its second line), the default and two explicit tunables.
TYPED_TEST(Dst1OnChipGpu, DivisionBetweenTwoTransformsInOnePassEqualsTheThreeStepsBitwise) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  using T = TypeParam;
  gridflow::mesh::Stream stream;
  for (const std::array<gridflow::mesh::Index, 3> n : {std::array<gridflow::mesh::Index, 3>{32, 16, 64},
                                                       std::array<gridflow::mesh::Index, 3>{128, 64, 256}}) {
    gridflow::mesh::Grid<3> grid;
    grid.n = n;
    grid.length = {1.0, 0.5, 2.0};
    const Box<3> owned{{0, 0, 0}, {n[0], n[1], n[2]}}, interior{{1, 1, 1}, {n[0] - 1, n[1] - 1, n[2] - 1}};
    const fft::DirichletEigenvalues<T> eigenvalues(grid, MemorySpace::device, stream.get());
    const T scale = static_cast<T>(8.0 / static_cast<double>(n[0] * n[1] * n[2]));
    Field<T, 3> values(owned, 1, MemorySpace::host, "values");
    fill(values);
    for (int axis = 0; axis < 3; ++axis)
      for (const int radix : {0, 4, 16}) {
        fft::FlowGraphTunables tunables;
        if (radix) {
          tunables.radix = radix;
          tunables.lines_per_block = radix == 4 ? 3 : 1;
          tunables.twiddle_table = radix == 16;
        }
        Field<T, 3> steps(owned, 1, MemorySpace::device, "steps"), fused(owned, 1, MemorySpace::device, "fused");
        steps.copy_from(values);
        fused.copy_from(values);
        const auto box = addressing(steps, interior);
        fft::launch_dst1_lines_onchip<T>(steps.view().data, box, axis, tunables, stream.get());
        fft::divide_by_eigenvalues(steps, interior, eigenvalues.tables(), scale, stream.get());
        fft::launch_dst1_lines_onchip<T>(steps.view().data, box, axis, tunables, stream.get());
        fft::launch_dst1_divide_dst1_onchip<T>(fused.view().data, addressing(fused, interior),
                                               {interior.lo[0], interior.lo[1], interior.lo[2]}, axis,
                                               eigenvalues.tables(), scale, tunables, stream.get());
        gridflow::mesh::synchronize(stream.get());
        Field<T, 3> a(owned, 1, MemorySpace::host, "a"), b(owned, 1, MemorySpace::host, "b");
        a.copy_from(steps);
        b.copy_from(fused);
        std::size_t differing = 0;
        for (std::size_t i = 0; i < a.allocated_elements(); ++i)
          differing += std::memcmp(&a.allocation()[i], &b.allocation()[i], sizeof(T)) != 0;
        EXPECT_EQ(differing, 0u) << "grid " << n[0] << " x " << n[1] << " x " << n[2] << ", axis " << axis
                                 << ", radix " << radix << ": values differing from the three steps";
        // The division happened: the result is not the input scaled (a transform applied twice).
        EXPECT_GT(relative_l2(b, values), 1e-3);
      }
  }
}

}  // namespace

#endif  // GRIDFLOW_HAVE_CUDA
