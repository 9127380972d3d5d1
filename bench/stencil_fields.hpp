#pragma once
// The device fields the stencil benchmark drivers sweep: n points per axis, one ghost layer,
// a smooth pattern everywhere (ghosts included), and the points a step or sweep updates.
#include <cmath>

#include "mesh/field.hpp"

namespace gridflow::bench {

/// Heat 2D: u and v (ping-pong) on n x n points.
template <class T>
struct HeatFields {
  explicit HeatFields(long n)
      : owned{{0, 0}, {n - 1, n - 1}}, update(owned.grow(-1)), u(owned, 1, mesh::MemorySpace::device),
        v(owned, 1, mesh::MemorySpace::device) {
    mesh::Field<T, 2> host(owned, 1, mesh::MemorySpace::host);
    const auto g = host.ghosted();
    for (auto j = g.lo[1]; j <= g.hi[1]; ++j)
      for (auto i = g.lo[0]; i <= g.hi[0]; ++i) host(i, j) = static_cast<T>(std::sin(1e-3 * i) * std::cos(2e-3 * j));
    u.copy_from(host);
    v.copy_from(host);
  }
  mesh::Box<2> owned, update;
  mesh::Field<T, 2> u, v;
};

/// Jacobi 3D: u and v (ping-pong) and the right-hand side f on n^3 points.
template <class T>
struct JacobiFields {
  explicit JacobiFields(long n)
      : owned{{0, 0, 0}, {n - 1, n - 1, n - 1}}, update(owned.grow(-1)), u(owned, 1, mesh::MemorySpace::device),
        v(owned, 1, mesh::MemorySpace::device), f(owned, 1, mesh::MemorySpace::device) {
    mesh::Field<T, 3> host(owned, 1, mesh::MemorySpace::host);
    const auto g = host.ghosted();
    for (auto k = g.lo[2]; k <= g.hi[2]; ++k)
      for (auto j = g.lo[1]; j <= g.hi[1]; ++j)
        for (auto i = g.lo[0]; i <= g.hi[0]; ++i) host(i, j, k) = static_cast<T>(std::sin(1e-2 * i + 2e-2 * j - 3e-2 * k));
    u.copy_from(host);
    v.copy_from(host);
    f.copy_from(host);
  }
  mesh::Box<3> owned, update;
  mesh::Field<T, 3> u, v, f;
};

}  // namespace gridflow::bench
