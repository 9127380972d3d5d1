#pragma once
// The warp variant's geometry (host and device): which filters it takes, the values a warp stages
// and the shared memory of a block. The kernel is warp_cuda.cu; its arguments are the ring
// kernel's (RingArgs, axes x and walk).
//
// A warp owns 32 x cells x V columns of one row (V values per vector, `cells` vectors per thread,
// thread t's u-th vector at columns xb + (32 u + t) V) and stages them once with NH vectors of x
// halo on each side: (32 cells + 2 NH) V values, column xb - NH V + c at c.
#include <array>
#include <cstddef>
#include <vector>

#include "kernels/filter/filter_tunables.hpp"
#include "kernels/filter/ring_block.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::filter {

/// Values per vector: two (8 bytes of float, 16 of double); a warp's vectors of double are 512 bytes.
inline constexpr int warp_vector = 2;

/// The length K the warp variant runs for these weights: K on x alone (a 1D signal, or rows
/// apart; K in 3, 5, 9, 33), or 0 where it does not take them (the last axis filtered too,
/// other lengths, 3D).
template <int Dim>
int warp_length(const std::array<std::vector<double>, Dim>& axis) {
  if constexpr (Dim != 2) {
    return 0;
  } else {
    const std::array<int, 3> l = ring_lengths<Dim>(axis);
    return l[0] != 0 && l[2] == 1 ? l[0] : 0;
  }
}

/// Halo vectors on each side of a warp's values for length K.
GRIDFLOW_HOST_DEVICE constexpr int warp_halo_vectors(int k) { return (k / 2 + warp_vector - 1) / warp_vector; }

/// Values a warp stages: `cells` vectors per thread and the halo.
GRIDFLOW_HOST_DEVICE constexpr int warp_line_values(int k, int cells) { return (32 * cells + 2 * warp_halo_vectors(k)) * warp_vector; }

/// Shared memory of a warp-variant block (bytes) for length K.
template <class T>
std::size_t warp_shared_bytes(const FilterTunables& t, int k) {
  return std::size_t(t.threads / 32) * warp_line_values(k, t.cells) * sizeof(T);
}

}  // namespace gridflow::kernels::filter
