#pragma once
// Launcher of the CUDA whitening variant; no CUDA syntax, so whiten.cpp calls it. Per frame, on
// `stream`, no host round trip (whiten.hpp's steps):
//   1. the shift passes of the reference against F: one cooperative launch of no more blocks than
//      the frame's strips fill. Threads walk strips of `rows` rows down the counted columns (every
//      load of a strip first: F's gradient terms and the reference's cubic samples); each block
//      writes its 5 sums to its slot, and after one grid
//      barrier every block adds the slots in slot order itself, applies the same update and tests
//      the tolerance. Where S_t leaves the anchor's reach, the same launch moves the anchor,
//      registers the history again and (least squares) recomputes the table of products;
//   2. the history joins F: each thread takes strips of `rows` rows down one column, registers its
//      strip of F (R_t), and walks the history 64 / rows frames at a time, every load of a group
//      first, adding the next reference and the products of the newest basis values with each
//      basis frame (no block barrier until the block's sums); each block's sums go to its slot,
//      and the last block to finish adds them in slot order, fills the table's row and finds the
//      weights: (G + ridge I)^-1 b, the inverse made meanwhile by one more block (least squares,
//      N <= 32: G is known before F arrives), else by Gauss-Jordan in shared memory;
//   3. the prediction, subtraction and the copy of F into the ring, fused per pixel, the frames
//      split over 4 thread groups whose partial sums meet in shared memory.
// No floating-point atomics: every sum is added in an order fixed by the launch shape (device
// and tunables), so a stream gives bitwise the same shifts and outputs run after run.
#include <cstddef>

#include "kernels/filter/whiten_frame.hpp"
#include "kernels/filter/whiten_tunables.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::filter {

/// Most blocks of the shift and join kernels (their slots sit in the work buffer).
inline constexpr int whiten_cuda_max_blocks = 1024;

/// Doubles of the work buffer for memory N: the weights (N), the pair shifts (2N), the anchor and
/// its count of moves (3), the table of products ((N+1)^2), the shift passes' two sets of slots (5
/// sums per block), the join kernel's slots (N + 1 products per block), the anchor move's slots
/// (one per pair of remembered frames per block), the least-squares system's inverse (N x N).
inline std::size_t whiten_cuda_work_doubles(int memory) {
  const std::size_t n = memory, blocks = whiten_cuda_max_blocks;
  return 3 * n + 3 + (n + 1) * (n + 1) + blocks * (2 * 5 + (n + 1) + n * (n + 1) / 2) + n * n;
}
/// Where the weights a_1..a_m sit in the work buffer.
inline const double* whiten_cuda_weights(const double* work, int /*memory*/) { return work; }
/// Where (A_y, A_x, moves) sit in the work buffer.
inline const double* whiten_cuda_anchor(const double* work, int memory) { return work + 3 * memory; }
/// Unsigned counters the launcher needs (zeroed once before the first frame): the join kernel's.
inline constexpr std::size_t whiten_cuda_counters = 1;

/// Enqueues one frame's whitening on `stream`. `job` points into device memory except its
/// weights, pair_shift, products and anchor, which the launcher places in `work`
/// (whiten_cuda_work_doubles(N)).
template <class T>
void launch_whiten_frame_cuda(const WhitenFrame<T>& job, const WhitenParams& params, const WhitenTunables& tunables,
                              double* work, unsigned* counters, StreamHandle stream);

}  // namespace gridflow::kernels::filter
