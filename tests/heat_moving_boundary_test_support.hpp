#pragma once
// Fused heat steps with boundary values that move in time, against the chain of single host steps
// that sets the boundary points after each step (as HeatSolver does unfused). The fused side gets
// the values of the launch's inner steps from DirichletBoundary::ring, on the host or the device.
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "heat_test_support.hpp"
#include "kernels/stencil/heat.hpp"
#include "solver/dirichlet_boundary.hpp"

namespace gridflow::testing {

/// Every side moves, each in its own way, and the corners belong to the left and right sides.
inline const std::string moving_boundary_deck =
    "[grid]\nn = [300, 170]\nlength = [1.0, 0.6]\n[heat]\na = 0.8\nsteps = 10\n"
    "initial = 'x*y'\n"
    "[heat.boundary]\nleft = 'y * cos(4000*t)'\nright = '1 + sin(y + 3000*t)'\nbottom = 'x * exp(-900*t)'\n"
    "top = 'x^2 + 200*t'\n";

template <class T>
class MovingBoundaryCase {
 public:
  explicit MovingBoundaryCase(const std::string& deck = moving_boundary_deck)
      : m_config(heat_config(deck)), m_boundary(m_config.grid, m_config.boundary, mesh::MemorySpace::host, nullptr) {}

  const solver::HeatConfig& config() const { return m_config; }
  kernels::stencil::HeatCoefficients<T> coefficients() const { return {T(0.21), T(0.17)}; }
  mesh::Box<2> points() const { return m_config.grid.points(); }
  mesh::Box<2> interior() const { return m_config.grid.interior(); }

  /// A host field over `owned` with `ghost` layers at step 0: a smooth field on the grid, the
  /// boundary values at t = 0 on its boundary points, NaN on the points beyond the grid (never read).
  mesh::Field<T, 2> start(const mesh::Box<2>& owned, int ghost) {
    mesh::Field<T, 2> f(owned, ghost, mesh::MemorySpace::host);
    const auto g = f.ghosted();
    for (auto j = g.lo[1]; j <= g.hi[1]; ++j)
      for (auto i = g.lo[0]; i <= g.hi[0]; ++i)
        f(i, j) = points().contains(mesh::Box<2>{{i, j}, {i, j}})
                      ? static_cast<T>(std::sin(0.37 * i) * std::cos(0.11 * j) + 1e-3 * i)
                      : std::numeric_limits<T>::quiet_NaN();
    m_boundary.apply(f, g.intersect(points()), 0.0);
    return f;
  }

  /// The whole grid after `steps` single host steps, the boundary points set after each.
  mesh::Field<T, 2> chain(int steps) {
    auto now = start(points(), 1), next = start(points(), 1);
    for (int q = 0; q < steps; ++q) {
      kernels::stencil::heat_step_host(now, next, interior(), coefficients());
      m_boundary.apply(next, points(), static_cast<double>(q + 1) * m_config.dt);
      std::swap(now, next);
    }
    return now;
  }

 private:
  solver::HeatConfig m_config;
  solver::DirichletBoundary<T, 2> m_boundary;
};

}  // namespace gridflow::testing
