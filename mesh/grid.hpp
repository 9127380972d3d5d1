#pragma once
// Grid<Dim>: the global vertex-centred mesh. Axis d has points 0..n[d] at origin[d] + i*h[d],
// h[d] = length[d]/n[d]; the points 0 and n[d] lie on the boundary and carry Dirichlet values.
#include <array>

#include "mesh/box.hpp"

namespace gridflow::mesh {

template <int Dim>
struct Grid {
  std::array<Index, Dim> n{};        ///< intervals per axis (M, N[, P]); points are 0..n
  std::array<double, Dim> length{};  ///< physical extent per axis
  std::array<double, Dim> origin{};  ///< coordinate of point 0 per axis

  double spacing(int axis) const { return length[axis] / static_cast<double>(n[axis]); }
  double coordinate(int axis, Index i) const { return origin[axis] + static_cast<double>(i) * spacing(axis); }
  /// Every point of the grid, boundary included.
  Box<Dim> points() const {
    Box<Dim> b;
    for (int d = 0; d < Dim; ++d) b.hi[d] = n[d];
    return b;
  }
  /// The points the scheme updates: all but the boundary.
  Box<Dim> interior() const { return points().grow(-1); }
};

}  // namespace gridflow::mesh
