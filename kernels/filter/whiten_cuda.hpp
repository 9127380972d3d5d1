#pragma once
// Launcher of the CUDA whitening variant; no CUDA syntax, so whiten.cpp calls it. Per frame, on
// `stream`, no host round trip:
//   1. the shift passes (pilot passes included): one cooperative launch. A pass walks the counted
//      pixels in tiles of 32 columns by 16 (shift_chunk 2) or 32 (shift_chunk 4) rows; per tile
//      the block puts F's gradient terms in shared memory once, then its warps take (frame, row
//      segment) tasks, so the gradient is computed once per pixel and pass whatever the memory.
//      Each block writes its sums to its own slot; after a grid barrier, block i adds sum i over
//      the slots in slot order; after a second barrier every block applies the same updates and
//      tests the tolerance (a pilot pass's 5 sums: every block adds them itself after one
//      barrier); the last pass writes s_k and S_t;
//   2. the correlations G, b: shared-memory tiles of the m aligned frames and F in double, the
//      products on the FP64 tensor cores (mma.m8n8k4, G = V V^T in 8 x 8 blocks), every block's
//      sums to its own slot; the last block of each group of 32 adds the group's slots in order,
//      and the last group to finish adds the groups in order and solves the ridge system
//      (Gauss-Jordan in shared memory);
//   3. the prediction, subtraction and the copy of F into the ring, fused per pixel, the frames
//      split over 8 thread groups whose partial sums meet in shared memory.
// No floating-point atomics: every sum is added in an order fixed by the launch shape (device
// and tunables), so a stream gives bitwise the same shifts and outputs run after run. Each thread
// walks a strip of rows down one column, so a cubic sample costs one new row interpolation
// (4 loads) instead of 16.
#include <cstddef>

#include "kernels/filter/whiten_frame.hpp"
#include "kernels/filter/whiten_tunables.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::filter {

/// Most blocks of a shift pass and of the correlation kernel (their slots sit in the work buffer).
inline constexpr int whiten_cuda_max_shift_blocks = 1024;
inline constexpr int whiten_cuda_max_gram_blocks = 1024;
/// Blocks of the correlation kernel whose slots the group's last block adds up.
inline constexpr int whiten_cuda_gram_group = 32;
/// Doubles of one shift-pass block's slot: u, v, w and (p, q) of every frame.
inline constexpr int whiten_cuda_shift_slot = 3 + 2 * max_whiten_memory;

/// Doubles of the work buffer for memory N: the weights (N), the pair shifts (2N), the shift
/// totals (3 + 2N), the shift slots, the correlations (N+1)^2, the correlation slots of every
/// block and of every group (one entry k >= l per pair), the pilot passes' two sets of slots (5
/// sums per block).
inline std::size_t whiten_cuda_work_doubles(int memory) {
  const std::size_t n = memory, pairs = (n + 1) * (n + 2) / 2;
  const std::size_t groups = whiten_cuda_max_gram_blocks / whiten_cuda_gram_group;
  return n + 2 * n + (3 + 2 * n) + std::size_t(whiten_cuda_max_shift_blocks) * whiten_cuda_shift_slot + (n + 1) * (n + 1) +
         (std::size_t(whiten_cuda_max_gram_blocks) + groups) * pairs + 2 * std::size_t(whiten_cuda_max_shift_blocks) * 5;
}
/// Where the weights a_1..a_m sit in the work buffer.
inline const double* whiten_cuda_weights(const double* work, int /*memory*/) { return work; }
/// Unsigned counters the launcher needs (zeroed once before the first frame): one per group of
/// correlation blocks and one for the groups.
inline constexpr std::size_t whiten_cuda_counters = whiten_cuda_max_gram_blocks / whiten_cuda_gram_group + 1;

/// Enqueues one frame's whitening on `stream`. `job` points into device memory except its
/// weights and pair_shift, which the launcher places in `work` (whiten_cuda_work_doubles(N)).
template <class T>
void launch_whiten_frame_cuda(const WhitenFrame<T>& job, const WhitenParams& params, const WhitenTunables& tunables,
                              double* work, unsigned* counters, StreamHandle stream);

}  // namespace gridflow::kernels::filter
