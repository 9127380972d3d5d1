// DistributedFft on every rank count: 2D and 3D, complex and real values, slab and pencil stages,
// strided and line-by-line lines, odd and even point counts. Each rank checks the spectrum it
// holds against
//   - a direct separable DFT in long double of the whole field (the reference), and
//   - the single-rank transform (a DistributedFft over MPI_COMM_SELF, FFTW): bitwise equal when
//     the lines run one by one, which the spectrum diagnostic relies on,
// and that inverse(forward(x)) = N_total x on its owned points.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <complex>
#include <cstring>
#include <vector>

#include "mesh/decomposition.hpp"
#include "transform/distributed_fft.hpp"
#include "mpi_test_support.hpp"
#include "typed_cases.hpp"

namespace {

using gridflow::mesh::Box;
using gridflow::mesh::Decomposition;
using gridflow::mesh::Field;
using gridflow::mesh::Index;
using gridflow::mesh::MemorySpace;
using gridflow::transform::DistributedFft;
using gridflow::transform::DistributedFftOptions;
using gridflow::transform::FftDecomposition;
using gridflow::transform::FftValues;
using LongComplex = std::complex<long double>;
using gridflow::testing::same_bits;

template <class V, std::size_t N>
auto& at(const V& v, const std::array<Index, N>& p) {
  return gridflow::testing::at<V, static_cast<int>(N)>(v, p);
}

// The test field's value at a point: irregular enough that every coefficient is non-zero.
LongComplex value_at(const std::array<Index, 3>& p, bool complex) {
  const long double re = std::sin(1.3L * p[0] + 0.7L * p[1] * p[1] + 2.1L * p[2]) + 0.25L * p[0] * p[1] / 7;
  const long double im = complex ? std::cos(0.9L * p[0] * p[2] - 1.7L * p[1]) : 0.0L;
  return {re, im};
}

template <int Dim>
std::array<Index, 3> point3(const std::array<Index, Dim>& p) {
  std::array<Index, 3> q{0, 0, 0};
  for (int d = 0; d < Dim; ++d) q[d] = p[d];
  return q;
}

// The whole field's DFT, axis after axis, by the definition, in long double; x fastest.
template <int Dim>
std::vector<LongComplex> direct_dft(const std::array<Index, 3>& n, bool complex) {
  std::vector<LongComplex> a(static_cast<std::size_t>(n[0] * n[1] * n[2]));
  auto at = [&](Index i, Index j, Index k) -> LongComplex& { return a[static_cast<std::size_t>(i + n[0] * (j + n[1] * k))]; };
  for (Index k = 0; k < n[2]; ++k)
    for (Index j = 0; j < n[1]; ++j)
      for (Index i = 0; i < n[0]; ++i) at(i, j, k) = value_at({i, j, k}, complex);
  const long double two_pi = 6.283185307179586476925286766559L;
  for (int axis = 0; axis < Dim; ++axis) {
    std::vector<LongComplex> line(static_cast<std::size_t>(n[axis]));
    std::array<Index, 3> lines = n;
    lines[axis] = 1;
    for (Index k = 0; k < lines[2]; ++k)
      for (Index j = 0; j < lines[1]; ++j)
        for (Index i = 0; i < lines[0]; ++i) {
          auto element = [&](Index m) -> LongComplex& {
            std::array<Index, 3> p{i, j, k};
            p[axis] = m;
            return at(p[0], p[1], p[2]);
          };
          for (Index f = 0; f < n[axis]; ++f) {
            LongComplex sum = 0;
            for (Index m = 0; m < n[axis]; ++m)
              sum += element(m) * std::polar(1.0L, -two_pi * static_cast<long double>((f * m) % n[axis]) / n[axis]);
            line[f] = sum;
          }
          for (Index f = 0; f < n[axis]; ++f) element(f) = line[f];
        }
  }
  return a;
}

template <class T, int Dim>
void fill(Field<T, Dim>& f, const Box<Dim>& owned, bool complex) {
  for (Index q = 0; q < owned.size(); ++q) {
    std::array<Index, Dim> p{};
    Index rest = q;
    for (int d = 0; d < Dim; ++d) {
      p[d] = owned.lo[d] + rest % owned.extent(d);
      rest /= owned.extent(d);
    }
    const auto v = value_at(point3<Dim>(p), complex);
    auto x = p;
    if (complex) {
      x[0] = 2 * p[0];
      auto y = x;
      y[0] += 1;
      at(f.view(), x) = static_cast<T>(v.real());
      at(f.view(), y) = static_cast<T>(v.imag());
    } else {
      at(f.view(), x) = static_cast<T>(v.real());
    }
  }
}

template <int Dim>
std::vector<std::array<Index, Dim>> points_of(const Box<Dim>& b) {
  std::vector<std::array<Index, Dim>> out;
  for (Index q = 0; q < b.size(); ++q) {
    std::array<Index, Dim> p{};
    Index rest = q;
    for (int d = 0; d < Dim; ++d) {
      p[d] = b.lo[d] + rest % b.extent(d);
      rest /= b.extent(d);
    }
    out.push_back(p);
  }
  return out;
}

template <class T, int Dim>
void check_transform(const std::array<Index, Dim>& intervals, FftValues values, FftDecomposition decomposition,
                     bool line_by_line) {
  const bool complex = values == FftValues::complex;
  gridflow::mesh::Grid<Dim> grid;
  grid.n = intervals;
  for (int d = 0; d < Dim; ++d) grid.length[d] = 1.0;
  const Decomposition<Dim> d(grid, MPI_COMM_WORLD);
  const Decomposition<Dim> alone(grid, MPI_COMM_SELF);
  DistributedFftOptions options;
  options.decomposition = decomposition;
  options.line_by_line = line_by_line;
  DistributedFft<T, Dim> fft(d, values, MemorySpace::host, nullptr, options);
  DistributedFft<T, Dim> single(alone, values, MemorySpace::host, nullptr, options);

  const auto owned = complex ? gridflow::transform::interleaved(d.owned()) : d.owned();
  Field<T, Dim> input(owned, 1, MemorySpace::host, "input");
  fill(input, d.owned(), complex);
  Field<T, Dim> whole(complex ? gridflow::transform::interleaved(grid.points()) : grid.points(), 0, MemorySpace::host,
                      "whole");
  fill(whole, grid.points(), complex);
  fft.forward(input);
  single.forward(whole);

  std::array<Index, 3> n{1, 1, 1};
  Index total = 1;
  for (int a = 0; a < Dim; ++a) total *= n[a] = intervals[a] + 1;
  const auto reference = direct_dft<Dim>(n, complex);
  long double scale = 0;  // the largest coefficient, for the tolerance
  for (const auto& z : reference) scale = std::max(scale, std::abs(z));
  const double tolerance = (std::is_same_v<T, float> ? 2e-6 : 1e-13) * static_cast<double>(scale);

  const auto box = fft.spectrum_box();
  EXPECT_TRUE(fft.spectrum_points().contains(box));
  if (!box.empty()) {
    ASSERT_NE(fft.spectrum(), nullptr);
    const auto got = fft.spectrum()->view();
    const auto one = single.spectrum()->view();
    for (const auto& p : points_of(box)) {
      auto re = p, im = p;
      re[0] = 2 * p[0];
      im[0] = 2 * p[0] + 1;
      const auto q = point3<Dim>(p);
      const auto& want = reference[static_cast<std::size_t>(q[0] + n[0] * (q[1] + n[1] * q[2]))];
      ASSERT_NEAR(at(got, re), static_cast<double>(want.real()), tolerance) << "re at " << q[0] << "," << q[1] << "," << q[2];
      ASSERT_NEAR(at(got, im), static_cast<double>(want.imag()), tolerance) << "im at " << q[0] << "," << q[1] << "," << q[2];
      if (line_by_line) {
        ASSERT_TRUE(same_bits(at(got, re), at(one, re))) << "not the single-rank bits";
        ASSERT_TRUE(same_bits(at(got, im), at(one, im))) << "not the single-rank bits";
      }
    }
  } else {
    EXPECT_EQ(fft.spectrum(), nullptr);
  }
  // Every spectral point is held by exactly one rank.
  long long held = box.size(), all = 0;
  MPI_Allreduce(&held, &all, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(all, fft.spectrum_points().size());

  Field<T, Dim> back(owned, 2, MemorySpace::host, "back");
  fft.inverse(back);
  Field<T, Dim> expected(owned, 0, MemorySpace::host, "expected");
  fill(expected, d.owned(), complex);
  const double roundtrip_tolerance = (std::is_same_v<T, float> ? 2e-5 : 1e-12) * static_cast<double>(total) * 2;
  for (const auto& p : points_of(owned))
    ASSERT_NEAR(at(back.view(), p), static_cast<double>(total) * at(expected.view(), p), roundtrip_tolerance);
}

}  // namespace

TEST(DistributedFftMpi, Slab2dComplex) {
  check_transform<double, 2>({12, 8}, FftValues::complex, FftDecomposition::slab, false);
  check_transform<double, 2>({5, 3}, FftValues::complex, FftDecomposition::slab, true);
}

TEST(DistributedFftMpi, Slab2dReal) {
  check_transform<double, 2>({12, 8}, FftValues::real, FftDecomposition::slab, false);  // 13 x-points: odd
  check_transform<double, 2>({11, 9}, FftValues::real, FftDecomposition::slab, true);   // 12: even
  check_transform<float, 2>({11, 9}, FftValues::real, FftDecomposition::slab, false);
}

TEST(DistributedFftMpi, Slab3dComplex) {
  check_transform<double, 3>({8, 6, 5}, FftValues::complex, FftDecomposition::slab, false);
  check_transform<double, 3>({4, 3, 5}, FftValues::complex, FftDecomposition::slab, true);
}

TEST(DistributedFftMpi, Slab3dReal) {
  check_transform<double, 3>({8, 6, 5}, FftValues::real, FftDecomposition::slab, false);
  check_transform<double, 3>({7, 5, 6}, FftValues::real, FftDecomposition::slab, true);
  check_transform<float, 3>({7, 5, 6}, FftValues::real, FftDecomposition::slab, true);
}

TEST(DistributedFftMpi, Pencil3dComplex) {
  check_transform<double, 3>({8, 6, 5}, FftValues::complex, FftDecomposition::pencil, false);
  check_transform<double, 3>({4, 3, 5}, FftValues::complex, FftDecomposition::pencil, true);
}

TEST(DistributedFftMpi, Pencil3dReal) {
  check_transform<double, 3>({8, 6, 5}, FftValues::real, FftDecomposition::pencil, false);
  check_transform<double, 3>({7, 5, 6}, FftValues::real, FftDecomposition::pencil, true);
}

TEST(DistributedFftMpi, PencilIn2dIsRefused) {
  gridflow::mesh::Grid<2> grid;
  grid.n = {4, 4};
  grid.length = {1, 1};
  const Decomposition<2> d(grid, MPI_COMM_WORLD);
  DistributedFftOptions options;
  options.decomposition = FftDecomposition::pencil;
  EXPECT_THROW((DistributedFft<double, 2>(d, FftValues::real, MemorySpace::host, nullptr, options)), gridflow::Error);
}
