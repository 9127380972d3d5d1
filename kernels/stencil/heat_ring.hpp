#pragma once
// HeatRing<T>: the values that the boundary points of a fused heat launch take at its inner steps,
// when they move with time. The boundary points are the ring active.grow(1) minus active around
// the points a step updates; a launch of K steps reads those of its readable box at steps 0..K-1:
// step 0's from its input field, steps 1..K-1's from here (step K's are read by no point it writes).
//
// Layout, per step s = 1..K-1 (step-major): the bottom row (y = active.lo[1] - 1) and the top row
// (y = active.hi[1] + 1) over the box's x-range, then the left column (x = active.lo[0] - 1) and the
// right column (x = active.hi[0] + 1) over its y-range; a side the box does not reach is left unset.
// A corner point is held by its row and its column alike.
#include <array>
#include <cstdint>

#include "mesh/box.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::stencil {

/// HeatRing's layout in indices relative to a launch's origin (its update box's low corner), for
/// the kernels.
template <class T>
struct HeatRingView {
  const T* values = nullptr;
  int x0 = 0, x1 = -1, y0 = 0, y1 = -1;  ///< the box, relative, inclusive
  int ax0 = 0, ax1 = -1, ay0 = 0, ay1 = -1;  ///< the active box, relative, inclusive

  /// Where point (x, y) of the box at step s (1..K-1) is held; -1 for a point on no side.
  GRIDFLOW_HOST_DEVICE long long index(int s, int x, int y) const {
    if (x < x0 || x > x1 || y < y0 || y > y1) return -1;
    const long long nx = x1 - x0 + 1, ny = y1 - y0 + 1, base = 2 * (nx + ny) * (s - 1);
    if (y == ay0 - 1) return base + (x - x0);
    if (y == ay1 + 1) return base + nx + (x - x0);
    if (x == ax0 - 1) return base + 2 * nx + (y - y0);
    if (x == ax1 + 1) return base + 2 * nx + ny + (y - y0);
    return -1;
  }
  /// The value of point (x, y) at step s when it is a boundary point of the box, else `keep`.
  GRIDFLOW_HOST_DEVICE T at(int s, int x, int y, T keep) const {
    const long long k = index(s, x, y);
    return k < 0 ? keep : values[k];
  }
};

template <class T>
struct HeatRing {
  const T* values = nullptr;  ///< null: boundary points keep their values (fixed boundary)
  mesh::Box<2> box;           ///< the points covered: a launch's readable box, or a box holding it
  mesh::Box<2> active;        ///< the points a step updates

  bool moving() const { return values != nullptr; }
  /// Values per step: two rows and two columns of the box.
  std::int64_t per_step() const { return 2 * (box.extent(0) + box.extent(1)); }
  /// Values of a launch of `steps` steps (steps 1..steps-1).
  std::int64_t count(int steps) const { return steps > 1 ? per_step() * (steps - 1) : 0; }
  /// The view relative to `origin`.
  HeatRingView<T> view(const std::array<mesh::Index, 2>& origin = {0, 0}) const {
    const auto r = [&](mesh::Index v, int axis) { return static_cast<int>(v - origin[axis]); };
    return {values, r(box.lo[0], 0), r(box.hi[0], 0), r(box.lo[1], 1), r(box.hi[1], 1),
            r(active.lo[0], 0), r(active.hi[0], 0), r(active.lo[1], 1), r(active.hi[1], 1)};
  }
};

}  // namespace gridflow::kernels::stencil
