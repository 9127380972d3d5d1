#pragma once
#include <cstddef>
#include <ostream>

namespace gridflow::kernels::stencil {

/// Tunables of the CUDA heat kernels. The defaults are the single-step configuration with the best
/// worst case over 8192^2 and 16384^2, float and double, on an H200
/// (bench/results/heat2d_kernel_h200.json): 81-83% of the copy bandwidth in float, 90-93% in double;
/// 32x8 with one cell per thread reached only 52% in float. One step per launch is the default
/// because it is legal everywhere (time-dependent boundaries, any ghost width); how many steps to
/// fuse pays off differently with grid size and GPU, which is the tuner's to find.
struct HeatCudaParams {
  int block_x = 64;          ///< threads along x (unit stride); multiples of 32 keep loads coalesced
  int block_y = 2;           ///< threads along y
  int cells_per_thread = 4;  ///< consecutive y-cells each thread updates (1, 2, 4 or 8): more reuse of
                             ///< the rows above and below through registers, fewer threads
  /// Time steps one launch takes (1, 2, 4 or 8; temporal blocking). Above 1 (k), a block loads a
  /// tile of block_x columns (one per thread) by block_y * cells_per_thread + 2k rows into shared
  /// memory, steps it there k times, and writes its inner (block_x - 2k) x (block_y *
  /// cells_per_thread) points once: global traffic per step falls by about k, for redundant work on
  /// the tile's rim of k points.
  int fused_steps = 1;

  static constexpr std::size_t max_shared_bytes = 48 * 1024;  ///< a launch's shared memory without opt-in

  /// Shared memory of a fused launch taking `steps` steps with values of `value_bytes`: two tiles.
  std::size_t fused_shared_bytes(int steps, std::size_t value_bytes) const {
    const auto h = static_cast<std::size_t>(block_y * cells_per_thread + 2 * steps);
    return 2 * static_cast<std::size_t>(block_x) * h * value_bytes;
  }

  /// Block of at most 1024 threads, x a multiple of 32, cells_per_thread and fused_steps one of the
  /// listed values, and a fused tile wider than its rims. Whether a fused tile fits in shared memory
  /// depends on the precision: see fits_shared_memory.
  bool valid() const {
    const auto listed = [](int v) { return v == 1 || v == 2 || v == 4 || v == 8; };
    return listed(cells_per_thread) && listed(fused_steps) && block_x >= 32 && block_x % 32 == 0 && block_y >= 1 &&
           block_x * block_y <= 1024 && block_x > 2 * fused_steps;
  }
  bool fits_shared_memory(std::size_t value_bytes) const {
    return fused_steps == 1 || fused_shared_bytes(fused_steps, value_bytes) <= max_shared_bytes;
  }
};

inline std::ostream& operator<<(std::ostream& os, const HeatCudaParams& p) {
  return os << "heat_cuda(bx=" << p.block_x << ",by=" << p.block_y << ",cpt=" << p.cells_per_thread
            << ",fused=" << p.fused_steps << ')';
}

}  // namespace gridflow::kernels::stencil
