#pragma once
#include <cstddef>
#include <ostream>

namespace gridflow::kernels::stencil {

/// Tunables of the CUDA Jacobi kernels (the seed paper's 3D parameters, plus vector width along x).
/// The defaults are among the best worst cases over 256^3 and 512^3, float and double, on an H200
/// (bench/results/jacobi3d_kernel_h200.json): 95%/98% of the copy bandwidth at 512^3 float/double,
/// where one cell per thread reached at best 78%/92%. The shared tile lost in every case there
/// (at best 53%): Hopper's L1 serves the neighbours.
///
/// A launch of k > 1 sweeps (temporal blocking, jacobi_sweeps) runs the fused kernel instead: each
/// block streams a column of chunk_z planes (plus k below and above) through an x-y tile of
/// block_x by block_y * cells_y columns, one thread per block_x column and cells_y rows, keeping
/// each sweep's last three planes in registers and its current plane in shared memory; it writes
/// the inner (block_x - 2k) x (block_y * cells_y - 2k) columns once. DRAM traffic per sweep falls
/// by about k, for redundant work on the tile's rim of k points and on 2k extra planes per chunk.
/// Where it can (k = 2, 3, 4; cells_y 1 or 2; block_x 32, 64 or 128; even strides; a block within
/// its registers and shared memory), the rows kernel takes the launch instead: each thread then
/// owns 2 adjacent columns of cells_y adjacent rows, so the tile is 2 block_x columns wide
/// (jacobi_fused_rows_cuda.cu). Its shape is block_x, block_y, cells_y and chunk_z; cells_z,
/// cells_x and shared_tile are the single sweep's.
struct JacobiCudaParams {
  int block_x = 32;       ///< threads along x (unit stride); multiples of 32 keep loads coalesced
  int block_y = 8;        ///< threads along y
  int cells_z = 4;        ///< z-cells each thread walks (1, 2, 4, 8 or 16), keeping the planes below
                          ///< and above in registers
  bool shared_tile = false;  ///< stage the x-y tile plus halo in shared memory instead of L1 loads
  int cells_x = 2;        ///< consecutive x-cells per thread (1, 2 or 4), read and written as one
                          ///< vector; fewer load instructions per byte (matters most in float).
                          ///< L1 variant only: the shared tile ignores it
  int cells_y = 1;        ///< fused sweeps only: tile rows per thread (1, 2 or 4); a taller tile
                          ///< wastes less on its rim, for more registers per thread
  int chunk_z = 64;       ///< fused sweeps only: z-planes each block writes (16..512); longer
                          ///< chunks re-read fewer halo planes, shorter ones make more blocks

  /// Shared memory a launch of k > 1 sweeps needs per block: two planes of the tile per sweep.
  /// Beyond the 48 KiB of a plain launch the launcher opts in, up to the device's limit; this is
  /// Hopper's (227 KiB), and a device with less refuses larger tiles at launch ("cannot launch").
  static constexpr std::size_t max_fused_shared_bytes = 227 * 1024;
  /// The largest sweep count one fused launch takes.
  static constexpr int max_fused_sweeps = 8;
  std::size_t fused_shared_bytes(int sweeps, std::size_t value_bytes) const {
    return 2 * static_cast<std::size_t>(sweeps) * block_x * block_y * cells_y * value_bytes;
  }

  bool valid() const {
    const bool z_ok = cells_z == 1 || cells_z == 2 || cells_z == 4 || cells_z == 8 || cells_z == 16;
    const bool x_ok = cells_x == 1 || cells_x == 2 || cells_x == 4;
    const bool y_ok = cells_y == 1 || cells_y == 2 || cells_y == 4;
    return z_ok && x_ok && y_ok && chunk_z >= 1 && (cells_x == 1 || !shared_tile) && block_x >= 32 && block_x % 32 == 0 &&
           block_y >= 1 && block_x * block_y <= 1024;
  }
  /// Whether a launch of `sweeps` sweeps of values of `value_bytes` runs with this shape: one sweep
  /// always does; fused sweeps (up to max_fused_sweeps) need a tile wider and taller than its two
  /// rims, within max_fused_shared_bytes.
  bool fits_sweeps(int sweeps, std::size_t value_bytes) const {
    if (sweeps == 1) return true;
    return sweeps >= 1 && sweeps <= max_fused_sweeps && block_x > 2 * sweeps && block_y * cells_y > 2 * sweeps &&
           fused_shared_bytes(sweeps, value_bytes) <= max_fused_shared_bytes;
  }
};

/// The most sweeps, at most n (n >= 1), that one launch takes: 1 (the single sweep), 2, 3, 4 or 8
/// (the fused kernel's instances). A solver takes n sweeps as such launches, largest first.
constexpr int jacobi_fused_sweeps_at_most(int n) { return n >= 8 ? 8 : n >= 4 ? 4 : n < 1 ? 1 : n; }

inline std::ostream& operator<<(std::ostream& os, const JacobiCudaParams& p) {
  return os << "jacobi_cuda(bx=" << p.block_x << ",by=" << p.block_y << ",cz=" << p.cells_z << ",smem=" << p.shared_tile
            << ",cx=" << p.cells_x << ",cy=" << p.cells_y << ",chunk=" << p.chunk_z << ')';
}

}  // namespace gridflow::kernels::stencil
