#pragma once
// Launcher of the CUDA whitening variant; no CUDA syntax, so whiten.cpp calls it. Per frame, on
// `stream`, no host round trip:
//   1. the shift passes (pilot passes included): one cooperative launch; each pass sums, for all
//      its frames at once, the products of whiten_point.hpp (warp sums, then block sums in shared
//      memory, finished with atomics in device memory), then a grid-wide barrier, after which
//      every block applies the same updates and tests the tolerance; the last pass writes s_k
//      and S_t;
//   2. the correlations G, b: shared-memory tiles of the m aligned frames and F, one thread per
//      matrix entry, block sums finished with atomics; the last block to finish solves the ridge
//      system (Gauss-Jordan in shared memory) and writes the weights;
//   3. the prediction, subtraction and the copy of F into the ring, fused per pixel, the frames
//      split over 8 thread groups whose partial sums meet in shared memory.
// Each thread walks a strip of 8 rows down one column, so a cubic sample costs one new row
// interpolation (4 loads) instead of 16. Sums land in an order that varies from run to run
// (atomics): shifts and outputs agree with the host reference to rounding, not bitwise.
#include <cstddef>

#include "kernels/filter/whiten_frame.hpp"
#include "kernels/filter/whiten_tunables.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::filter {

/// Doubles of the work buffer for memory N (zeroed once before the first frame): the weights
/// (N), the pair shifts (2N), three sets of shift sums (3 + 2N each), the correlations (N+1)^2.
inline std::size_t whiten_cuda_work_doubles(int memory) {
  const std::size_t n = memory;
  return n + 2 * n + 3 * (3 + 2 * n) + (n + 1) * (n + 1);
}
/// Where the weights a_1..a_m sit in the work buffer.
inline const double* whiten_cuda_weights(const double* work, int /*memory*/) { return work; }
/// Unsigned counters the launcher needs (zeroed once before the first frame).
inline constexpr std::size_t whiten_cuda_counters = 2;

/// Enqueues one frame's whitening on `stream`. `job` points into device memory except its
/// weights and pair_shift, which the launcher places in `work` (whiten_cuda_work_doubles(N)).
template <class T>
void launch_whiten_frame_cuda(const WhitenFrame<T>& job, const WhitenParams& params, const WhitenTunables& tunables,
                              double* work, unsigned* counters, StreamHandle stream);

}  // namespace gridflow::kernels::filter
