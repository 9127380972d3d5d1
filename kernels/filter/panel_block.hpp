#pragma once
// The panel variant's geometry (host and device): which filters it takes, a block's shape and
// shared memory, and its launch arguments (the ring kernel's RingArgs, axes x and walk). The
// kernel is panel_cuda.cu.
//
// 2D fields, the same length K (3, 5, 9 or 33) on both axes. A block of 32 x G threads owns
// X = 32 V columns (V values of T per 16-byte vector) and walks a segment of y, S = G C rows per
// step (C = panel_cells = 4). Shared memory, in values of T:
//   stage  stages x S x in_pitch     a step's input rows with their x halo (P values before, P
//                                    after), copied in asynchronously stages - 1 steps ahead
//                                    (1 stage: during the walk pass)
//   mid    ((n + 1) S + K - 1)       the x pass of the last n + 1 steps, n = ceil((K - 1) / S):
//            x mid_pitch             a cyclic buffer of (n + 1) S rows whose first K - 1 are
//                                    written twice (at i and (n + 1) S + i), so that the walk's
//                                    window of S + K - 1 rows is contiguous
// Each thread computes the x pass of one run of V C consecutive outputs of one row and the walk
// pass of V C / W consecutive outputs of its W columns (W = 1, 2 or V), both as accumulators in
// registers: every staged or intermediate value is loaded from shared memory once per thread
// that needs it, so a pass costs one product or FMA per weight and output and about
// (R + K - 1) / R loads per R outputs of a run, with no register window to shift (the ring
// variant's cost at K = 33).
#include <array>
#include <cstddef>
#include <vector>

#include "kernels/filter/filter_tunables.hpp"
#include "kernels/filter/ring_block.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::filter {

/// The length K the panel variant runs for these weights: 2D, K on both axes (3, 5, 9 or 33); else 0.
template <int Dim>
int panel_length(const std::array<std::vector<double>, Dim>& axis) {
  if constexpr (Dim != 2) {
    return 0;
  } else {
    const std::array<int, 3> l = ring_lengths<Dim>(axis);
    return l[0] != 0 && l[2] == l[0] ? l[0] : 0;
  }
}

/// A row pitch (values) of at least `values` whose 16-byte vectors are odd in number: the rows of
/// eight threads that load a vector each from eight consecutive rows fall in distinct banks.
GRIDFLOW_HOST_DEVICE constexpr int panel_pitch(int values, int vector) {
  const int v = (values + vector - 1) / vector;
  return (v % 2 == 0 ? v + 1 : v) * vector;
}

/// A block's shape: panel_threads_x threads along x (X = 32 V columns) by G = threads / 32
/// groups of panel_cells rows, S = G panel_cells rows a step. Fixed at compile time in the kernel
/// (its shared-memory offsets are immediates); the tunables choose G (2, 4 or 8).
inline constexpr int panel_threads_x = 32;
inline constexpr int panel_cells = 4;
GRIDFLOW_HOST_DEVICE constexpr int panel_rows(int threads) { return threads / panel_threads_x * panel_cells; }

/// Whether G groups tile a walk of W columns a thread: 32 G threads cover whole rows of
/// X / W = 32 V / W threads (G W a multiple of V).
GRIDFLOW_HOST_DEVICE constexpr bool panel_walk_fits(int groups, int width, int vector) { return groups * width % vector == 0; }

/// The columns of each thread's walk pass for T: the tunables' walk_columns (1 or 2), or a 16-byte
/// vector of them (0, and 2 for double).
template <class T>
int panel_walk_width(const FilterTunables& t) {
  constexpr int v = ring_vector<T>;
  return t.walk_columns == 0 || t.walk_columns > v ? v : t.walk_columns;
}

/// Slots of the cyclic buffer beyond the current step's: n = ceil((K - 1) / S).
GRIDFLOW_HOST_DEVICE constexpr int panel_extra_slots(int k, int rows) { return (k - 1 + rows - 1) / rows; }

/// Values per staged input row: X columns and the x halo of P values on each side (P the reach
/// rounded up to whole vectors), with panel_pitch's padding.
template <class T>
GRIDFLOW_HOST_DEVICE constexpr int panel_in_pitch(int x, int k) {
  return panel_pitch(x + 2 * ring_halo_before(k, ring_vector<T>), ring_vector<T>);
}

/// Shared memory of a panel block (bytes) for length K, as in the picture above.
template <class T>
std::size_t panel_shared_bytes(const FilterTunables& t, int k) {
  constexpr int v = ring_vector<T>, x = panel_threads_x * v;
  const int rows = panel_rows(t.threads);
  const std::size_t stage = std::size_t(t.batch) * rows * panel_in_pitch<T>(x, k);
  const std::size_t mid = std::size_t((panel_extra_slots(k, rows) + 1) * rows + k - 1) * panel_pitch(x, v);
  return (stage + mid) * sizeof(T);
}

}  // namespace gridflow::kernels::filter
