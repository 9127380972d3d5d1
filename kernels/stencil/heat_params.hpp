#pragma once
#include <cstddef>
#include <ostream>

namespace gridflow::kernels::stencil {

/// Tunables of the CUDA heat kernels' launch shape. The defaults are the single-step configuration
/// with the best worst case over 8192^2 and 16384^2, float and double, on an H200
/// (bench/results/heat2d_kernel_h200.json): 81-83% of the copy bandwidth in float, 90-93% in double;
/// 32x8 with one cell per thread reached only 52% in float. How many time steps one launch takes
/// (temporal blocking) is the `steps` argument of heat_steps, not a field here: it is the solver's
/// choice, bounded by the ghost width, and it pays off differently with grid size and GPU, which
/// is the tuner's to find.
///
/// A launch of k > 1 steps loads into shared memory, per block, a tile of block_x columns (one per
/// thread) by block_y * cells_per_thread + 2k rows, steps it there k times, and writes its inner
/// (block_x - 2k) x (block_y * cells_per_thread) points once: global traffic per step falls by
/// about k, for redundant work on the tile's rim of k points.
struct HeatCudaParams {
  int block_x = 64;          ///< threads along x (unit stride); multiples of 32 keep loads coalesced
  int block_y = 2;           ///< threads along y
  int cells_per_thread = 4;  ///< consecutive y-cells each thread updates (1, 2, 4 or 8): more reuse of
                             ///< the rows above and below through registers, fewer threads

  static constexpr std::size_t max_shared_bytes = 48 * 1024;  ///< a launch's shared memory without opt-in

  /// Shared memory of a fused launch taking `steps` steps with values of `value_bytes`: two tiles.
  std::size_t fused_shared_bytes(int steps, std::size_t value_bytes) const {
    const auto h = static_cast<std::size_t>(block_y * cells_per_thread + 2 * steps);
    return 2 * static_cast<std::size_t>(block_x) * h * value_bytes;
  }

  /// Block of at most 1024 threads, x a multiple of 32, cells_per_thread one of the listed values.
  /// Whether a fused launch fits depends on its steps and the precision: see fits_shared_memory.
  bool valid() const {
    const auto listed = [](int v) { return v == 1 || v == 2 || v == 4 || v == 8; };
    return listed(cells_per_thread) && block_x >= 32 && block_x % 32 == 0 && block_y >= 1 && block_x * block_y <= 1024;
  }
  /// Whether a launch of `steps` steps with values of `value_bytes` fits this shape: one step
  /// always does; fused steps need a tile wider than its two rims, within max_shared_bytes.
  bool fits_shared_memory(int steps, std::size_t value_bytes) const {
    return steps == 1 || (block_x > 2 * steps && fused_shared_bytes(steps, value_bytes) <= max_shared_bytes);
  }
};

inline std::ostream& operator<<(std::ostream& os, const HeatCudaParams& p) {
  return os << "heat_cuda(bx=" << p.block_x << ",by=" << p.block_y << ",cpt=" << p.cells_per_thread << ')';
}

}  // namespace gridflow::kernels::stencil
