#pragma once
// FftTiling<Dim>: how the FFT variant of the convolution filters (fft_correlate.hpp) cuts the
// global array into tiles. Along each transformed axis (one with more than one weight) tiles of
// `tile` outputs start at the array's first point and every `tile` points after it, the last one
// clipped to the array; a tile's window is the tile grown by the filter's reach (lo_reach below,
// weights - 1 - lo_reach above), transformed at `length` points, a power of two >= the window.
// Everything here depends on the weights' shape, the global array and the requested tile only,
// never on the box a rank updates: every rank cuts the same tiles, reads the same windows and
// transforms them in the same batches, which is what makes the variant's result independent of
// the decomposition bit for bit.
#include <algorithm>
#include <array>

#include "mesh/box.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::filter {

/// The smallest power of two >= n (n >= 1).
inline long long power_of_two_at_least(long long n) {
  long long p = 1;
  while (p < n) p *= 2;
  return p;
}

template <int Dim>
struct FftTiling {
  int transformed = 0;            ///< number of transformed axes
  int axis[Dim] = {};             ///< the transformed axes, ascending (axis[0] gets the real-to-complex transform)
  long long tile[Dim] = {};       ///< outputs per tile along each axis (transformed axes only)
  long long length[Dim] = {};     ///< FFT length along each axis (1 on the others)
  int weights[Dim] = {};          ///< weights along each axis (1 on axes not transformed)
  int lo_reach[Dim] = {};         ///< weights / 2: how far a window starts below its tile
  long long global_lo[Dim] = {};  ///< the global array
  long long global_hi[Dim] = {};

  /// Points of one block's real buffer (the product of the lengths) and of its half spectrum.
  long long real_points() const {
    long long n = 1;
    for (int d = 0; d < Dim; ++d) n *= length[d];
    return n;
  }
  long long spectrum_points() const { return real_points() / length[axis[0]] * (length[axis[0]] / 2 + 1); }
  bool is_transformed(int d) const {
    for (int k = 0; k < transformed; ++k)
      if (axis[k] == d) return true;
    return false;
  }
};

/// The tiling of weights of `shape` (per axis, x first) over `global`. Axes with more than one
/// weight are transformed (axis 0 if none has). `requested_tile` > 0 asks for that many outputs
/// per tile on every transformed axis; 0 takes the default: the FFT length the smallest power of
/// two >= 4 (weights - 1) and >= 16, the tile what is left of it beside the reach, so that at
/// least three quarters of each transform are outputs. A tile never exceeds the axis; the length
/// is then the smallest power of two holding the window.
template <int Dim>
FftTiling<Dim> make_fft_tiling(const std::array<int, Dim>& shape, const mesh::Box<Dim>& global, long long requested_tile) {
  FftTiling<Dim> t;
  for (int d = 0; d < Dim; ++d) {
    t.global_lo[d] = global.lo[d];
    t.global_hi[d] = global.hi[d];
    t.length[d] = 1;
    t.weights[d] = 1;
    if (shape[d] > 1) t.axis[t.transformed++] = d;
  }
  if (t.transformed == 0) t.axis[t.transformed++] = 0;
  for (int k = 0; k < t.transformed; ++k) {
    const int d = t.axis[k];
    const long long reach = shape[d] - 1, extent = global.extent(d);
    long long tile = requested_tile > 0 ? requested_tile : std::max(16LL, power_of_two_at_least(4 * reach)) - reach;
    tile = std::min(tile, extent);
    t.tile[d] = tile;
    t.length[d] = power_of_two_at_least(std::max(tile + reach, 2LL));  // FFT libraries take lengths >= 2
    t.weights[d] = shape[d];
    t.lo_reach[d] = shape[d] / 2;
  }
  return t;
}

/// `box` widened along the transformed axes to the whole tiles it meets, clipped to the array.
template <int Dim>
mesh::Box<Dim> tile_cover(const FftTiling<Dim>& t, const mesh::Box<Dim>& box) {
  mesh::Box<Dim> c = box;
  for (int k = 0; k < t.transformed; ++k) {
    const int d = t.axis[k];
    const long long g = t.global_lo[d], b = t.tile[d];
    c.lo[d] = g + (box.lo[d] - g) / b * b;
    c.hi[d] = std::min(g + ((box.hi[d] - g) / b + 1) * b - 1, t.global_hi[d]);
  }
  return c;
}

}  // namespace gridflow::kernels::filter
