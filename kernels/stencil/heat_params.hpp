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
/// A launch of k > 1 steps runs one of two kernels, chosen by stream_cells_x:
/// - 0, the tile kernel: a block loads into shared memory a tile of block_x columns (one per thread)
///   by block_y * cells_per_thread + 2k rows, steps it there k times, and writes its inner
///   (block_x - 2k) x (block_y * cells_per_thread) points once: global traffic per step falls by
///   about k, for redundant work on the tile's rim of k points (and a barrier per step).
/// - V = 2, 4 or 8, the streaming kernel (heat_stream_cuda.cu): each warp owns a strip of 32 V
///   columns (V consecutive cells a lane, loaded as one vector), k of them rounded up to V on each
///   side recomputed, and walks down `segment_rows` output rows plus k above and below, keeping
///   the last rows of each of the k time levels in registers; west and east neighbours cross lanes
///   by shuffles, so no barrier at all. Redundant work: 2k/(32 V) in x, 2k/segment_rows in y.
///   block_x, block_y and cells_per_thread are not consulted.
struct HeatCudaParams {
  int block_x = 64;          ///< threads along x (unit stride); multiples of 32 keep loads coalesced
  int block_y = 2;           ///< threads along y
  int cells_per_thread = 4;  ///< consecutive y-cells each thread updates (1, 2, 4 or 8): more reuse of
                             ///< the rows above and below through registers, fewer threads
  int stream_cells_x = 0;    ///< fused launches: 0 the tile kernel, else the streaming kernel's V (2, 4, 8)
  int segment_rows = 256;    ///< streaming kernel: output rows each warp walks (16..4096)

  static constexpr int max_streamed_steps = 16;  ///< the deepest launch of the streaming kernel
  static constexpr std::size_t max_shared_bytes = 48 * 1024;  ///< a launch's shared memory without opt-in

  /// Shared memory of a fused launch taking `steps` steps with values of `value_bytes`: two tiles.
  std::size_t fused_shared_bytes(int steps, std::size_t value_bytes) const {
    const auto h = static_cast<std::size_t>(block_y * cells_per_thread + 2 * steps);
    return 2 * static_cast<std::size_t>(block_x) * h * value_bytes;
  }

  /// Block of at most 1024 threads, x a multiple of 32, cells_per_thread and stream_cells_x one of
  /// the listed values. Whether a fused launch fits depends on its steps and the precision: see
  /// fits_shared_memory.
  bool valid() const {
    const auto listed = [](int v) { return v == 1 || v == 2 || v == 4 || v == 8; };
    return listed(cells_per_thread) && block_x >= 32 && block_x % 32 == 0 && block_y >= 1 && block_x * block_y <= 1024 &&
           (stream_cells_x == 0 || (stream_cells_x != 1 && listed(stream_cells_x))) && segment_rows >= 16 &&
           segment_rows <= 4096;
  }
  /// Whether a launch of `steps` steps with values of `value_bytes` fits this shape: one step
  /// always does (the one-step kernel); the tile kernel needs a tile wider than its two rims within
  /// max_shared_bytes; the streaming kernel keeps 2 rows of V values per time level in registers:
  /// at most max_streamed_steps levels of 8 bytes a row per lane, 8 levels of up to 32 bytes.
  bool fits_shared_memory(int steps, std::size_t value_bytes) const {
    if (steps == 1) return true;
    if (stream_cells_x > 0) {
      const std::size_t row_bytes = static_cast<std::size_t>(stream_cells_x) * value_bytes;
      return row_bytes <= 32 && steps <= (row_bytes > 8 ? 8 : max_streamed_steps);
    }
    return block_x > 2 * steps && fused_shared_bytes(steps, value_bytes) <= max_shared_bytes;
  }
};

inline std::ostream& operator<<(std::ostream& os, const HeatCudaParams& p) {
  return os << "heat_cuda(bx=" << p.block_x << ",by=" << p.block_y << ",cpt=" << p.cells_per_thread;
  if (p.stream_cells_x) os << ",stream=" << p.stream_cells_x << ",seg=" << p.segment_rows;
  return os << ')';
}

}  // namespace gridflow::kernels::stencil
