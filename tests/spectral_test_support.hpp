#pragma once
// Helpers for tests of the spectral solver: the manufactured decks and field comparison.
#include <mpi.h>

#include <optional>
#include <random>
#include <string>
#include <vector>

#include "box_iteration.hpp"
#include "poisson_test_support.hpp"

namespace gridflow::testing {

/// u = sin(pi x) sin(2 pi y) sin(3 pi z), zero faces, f = -14 pi^2 u.
inline const std::string spectral_sine_deck =
    "solver = 'spectral'\n[grid]\nn = [12, 10, 14]\n[poisson]\ntolerance = 1e-12\n"
    "rhs = '-14 * pi^2 * sin(pi*x) * sin(2*pi*y) * sin(3*pi*z)'\n";

/// u = x^2 + y z + 3, which the 7-point operator reproduces exactly (A u = 2), with every face
/// non-zero and a different spacing per axis.
inline std::string spectral_polynomial_deck() {
  std::string deck = "solver = 'spectral'\n[grid]\nn = [12, 10, 14]\nlength = [1.0, 0.8, 1.3]\norigin = [-0.2, 0.1, 0.0]\n"
                     "[poisson]\ntolerance = 1e-12\nrhs = '2'\n[poisson.boundary]\n";
  for (const char* face : {"x_low", "x_high", "y_low", "y_high", "z_low", "z_high"})
    deck += std::string(face) + " = 'x^2 + y*z + 3'\n";
  return deck;
}
inline double spectral_polynomial_exact(double x, double y, double z) { return x * x + y * z + 3; }

/// A host field over `box` with `ghost` layers of uniform random values in [-1, 1), ghosts too.
template <class T>
mesh::Field<T, 3> random_field(const mesh::Box<3>& box, int ghost, unsigned seed) {
  mesh::Field<T, 3> f(box, ghost, mesh::MemorySpace::host, "x");
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  for_each_point(f.ghosted(), [&](const auto& p) { f(p[0], p[1], p[2]) = static_cast<T>(u(rng)); });
  return f;
}

/// Max |a - b| over two gathered fields.
template <class T>
double max_difference(const std::vector<T>& a, const std::vector<T>& b) {
  double d = 0;
  for (std::size_t q = 0; q < a.size(); ++q) d = std::max(d, std::abs(static_cast<double>(a[q]) - static_cast<double>(b[q])));
  return d;
}

}  // namespace gridflow::testing
