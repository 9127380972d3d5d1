// RadialPowerSpectrum on every rank count: a field made of a few integer Fourier modes has its
// power, known in closed form, in the modes' bins and none elsewhere; any field's spectrum is
// bitwise that of the single-rank computation; K follows floor(sqrt(sum (n/2)^2)).
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <vector>

#include "mesh/decomposition.hpp"
#include "transform/power_spectrum.hpp"
#include "mpi_test_support.hpp"
#include "typed_cases.hpp"

namespace {

using gridflow::mesh::Decomposition;
using gridflow::mesh::Field;
using gridflow::mesh::Index;
using gridflow::mesh::MemorySpace;
using gridflow::transform::RadialPowerSpectrum;

constexpr double two_pi = 6.283185307179586;

template <int Dim>
gridflow::mesh::Grid<Dim> grid_of(const std::array<Index, Dim>& intervals) {
  gridflow::mesh::Grid<Dim> g;
  g.n = intervals;
  for (int d = 0; d < Dim; ++d) g.length[d] = 1.0;
  return g;
}

// f on this rank's owned points of a field with ghosts (the run's fields have them).
template <class T, int Dim, class F>
Field<T, Dim> field_of(const Decomposition<Dim>& d, F f) {
  Field<T, Dim> u(d.owned(), 1, MemorySpace::host, "u");
  const auto o = d.owned();
  for (Index q = 0; q < o.size(); ++q) {
    std::array<Index, Dim> p{};
    Index rest = q;
    for (int a = 0; a < Dim; ++a) {
      p[a] = o.lo[a] + rest % o.extent(a);
      rest /= o.extent(a);
    }
    gridflow::testing::at<decltype(u.view()), Dim>(u.view(), p) = static_cast<T>(f(p));
  }
  return u;
}

void expect_power(const std::vector<double>& power, const std::vector<double>& expected) {
  ASSERT_EQ(power.size(), expected.size());
  for (std::size_t b = 0; b < power.size(); ++b) EXPECT_NEAR(power[b], expected[b], 1e-13) << "bin " << b;
}

}  // namespace

TEST(PowerSpectrumMpi, MaxBin) {
  EXPECT_EQ(gridflow::transform::max_spectrum_bin<2>({17, 13}), 10);  // 8^2 + 6^2 = 100
  EXPECT_EQ(gridflow::transform::max_spectrum_bin<2>({2, 2}), 1);      // sqrt 2
  EXPECT_EQ(gridflow::transform::max_spectrum_bin<3>({9, 8, 7}), 6);   // 16 + 16 + 9 = 41
  EXPECT_EQ(gridflow::transform::spectrum_bin(2), 1);                   // 1.414
  EXPECT_EQ(gridflow::transform::spectrum_bin(5), 2);                   // 2.236
  EXPECT_EQ(gridflow::transform::spectrum_bin(7), 3);                   // 2.646
}

TEST(PowerSpectrumMpi, FourierModes2d) {
  const auto grid = grid_of<2>({16, 12});  // 17 x 13 points
  const Decomposition<2> d(grid, MPI_COMM_WORLD);
  const double nx = 17, ny = 13;
  // 0.3 (bin 0: 0.09) + cos 3x cos 4y (|k| = 5: four peaks of N/4, power 1/4)
  // + 0.5 cos(2x - y) (|k| = sqrt 5 -> bin 2: two peaks of N/2, power 0.5^2 / 2)
  const auto u = field_of<double, 2>(d, [&](const std::array<Index, 2>& p) {
    const double x = two_pi * p[0] / nx, y = two_pi * p[1] / ny;
    return 0.3 + std::cos(3 * x) * std::cos(4 * y) + 0.5 * std::cos(2 * x - y);
  });
  RadialPowerSpectrum<double, 2> spectrum(d);
  ASSERT_EQ(spectrum.max_bin(), 10);
  std::vector<double> expected(11, 0.0);
  expected[0] = 0.09;
  expected[5] = 0.25;
  expected[2] = 0.125;
  expect_power(spectrum.compute(u), expected);
}

TEST(PowerSpectrumMpi, FourierModes3d) {
  const auto grid = grid_of<3>({8, 7, 6});  // 9 x 8 x 7 points
  const Decomposition<3> d(grid, MPI_COMM_WORLD);
  // cos 2x cos y cos 3z: |k| = sqrt 14 -> bin 4, eight peaks of N/8: power 1/8.
  // 0.5 cos(x + 2y): |k| = sqrt 5 -> bin 2, power 1/8. The Nyquist plane y = 4 (8 points):
  // 0.2 cos(4y) = 0.2 (-1)^j, one peak of 0.2 N at |k| = 4: power 0.04.
  const auto u = field_of<double, 3>(d, [&](const std::array<Index, 3>& p) {
    const double x = two_pi * p[0] / 9, y = two_pi * p[1] / 8, z = two_pi * p[2] / 7;
    return std::cos(2 * x) * std::cos(y) * std::cos(3 * z) + 0.5 * std::cos(x + 2 * y) + 0.2 * std::cos(4 * y);
  });
  RadialPowerSpectrum<double, 3> spectrum(d);
  ASSERT_EQ(spectrum.max_bin(), 6);
  std::vector<double> expected(7, 0.0);
  expected[4] = 0.125 + 0.04;
  expected[2] = 0.125;
  expect_power(spectrum.compute(u), expected);
}

template <class T, int Dim>
void check_same_bits_as_one_rank(const std::array<Index, Dim>& intervals) {
  const auto grid = grid_of<Dim>(intervals);
  const Decomposition<Dim> d(grid, MPI_COMM_WORLD);
  const Decomposition<Dim> alone(grid, MPI_COMM_SELF);
  auto f = [](const std::array<Index, Dim>& p) {
    double v = 0;
    for (int a = 0; a < Dim; ++a) v += std::sin(0.37 * (a + 1) * p[a] * p[a] + a);
    return v * v;
  };
  RadialPowerSpectrum<T, Dim> spread(d), single(alone);
  const auto got = spread.compute(field_of<T, Dim>(d, f));
  const auto want = single.compute(field_of<T, Dim>(alone, f));
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t b = 0; b < got.size(); ++b) {
    EXPECT_TRUE(gridflow::testing::same_bits(got[b], want[b])) << "bin " << b << ": " << got[b] << " vs " << want[b];
    EXPECT_GT(got[b], 0.0) << "bin " << b;  // an irregular field has power everywhere
  }
}

TEST(PowerSpectrumMpi, BitwiseTheSingleRankSpectrum) {
  check_same_bits_as_one_rank<double, 2>({20, 15});
  check_same_bits_as_one_rank<double, 2>({127, 100});
  check_same_bits_as_one_rank<float, 2>({64, 99});
  check_same_bits_as_one_rank<double, 3>({31, 24, 20});
  check_same_bits_as_one_rank<float, 3>({16, 33, 21});
  check_same_bits_as_one_rank<float, 2>({15, 20});
  check_same_bits_as_one_rank<double, 3>({9, 10, 7});
  check_same_bits_as_one_rank<float, 3>({8, 5, 11});
}
