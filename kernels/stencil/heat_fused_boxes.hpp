#pragma once
// The boxes of a fused heat launch (heat.hpp's heat_steps) relative to its update box's low corner,
// as the fused kernels index them, and the ring's view in the same frame. For the launchers of
// heat_fused_cuda.cu and heat_stream_cuda.cu.
#include <cstdint>

#include "kernels/stencil/heat_ring.hpp"
#include "mesh/box.hpp"
#include "mesh/check.hpp"

namespace gridflow::kernels::stencil {

/// Bounds inclusive, relative to the update box's low corner.
struct FusedBoxes {
  int nx, ny;              ///< the update box's extent
  int ax0, ax1, ay0, ay1;  ///< active points: updated each step; the others keep their values
  int rx0, rx1, ry0, ry1;  ///< points read from `in`: update.grow(K) within active.grow(1)
  int steps;               ///< K
  long long i0, j0;        ///< the update box's low corner, global
};

inline FusedBoxes fused_boxes(const mesh::Box<2>& update, const mesh::Box<2>& active, int steps) {
  const auto lo = update.lo;
  const auto readable = update.grow(steps).intersect(active.grow(1));
  const auto rel = [&](std::int64_t v, int axis) { return static_cast<int>(v - lo[axis]); };
  return {static_cast<int>(update.extent(0)), static_cast<int>(update.extent(1)),
          rel(active.lo[0], 0), rel(active.hi[0], 0), rel(active.lo[1], 1), rel(active.hi[1], 1),
          rel(readable.lo[0], 0), rel(readable.hi[0], 0), rel(readable.lo[1], 1), rel(readable.hi[1], 1),
          steps, lo[0], lo[1]};
}

/// The ring's view for a launch of `steps` steps on `update` (none for fixed boundary values or
/// one step); throws Error when its box misses a boundary point the launch reads.
template <class T>
HeatRingView<T> fused_ring_view(const HeatRing<T>& ring, const mesh::Box<2>& update, const mesh::Box<2>& active, int steps) {
  if (!ring.moving() || steps < 2) return {};
  GRIDFLOW_REQUIRE(ring.box.contains(update.grow(steps).intersect(active.grow(1))) && ring.active == active,
                   "heat ring values miss the launch's boundary points");
  return ring.view({update.lo[0], update.lo[1]});
}

}  // namespace gridflow::kernels::stencil
