#pragma once
#include <ostream>

namespace gridflow::kernels::stencil {

/// Tunables of the CUDA heat kernel. The defaults are the configuration with the best worst case
/// over 8192^2 and 16384^2, float and double, on an H200 (bench/results/heat2d_kernel_h200.json):
/// 81-83% of the copy bandwidth in float, 90-93% in double; 32x8 with one cell per thread
/// reached only 52% in float.
struct HeatCudaParams {
  int block_x = 64;          ///< threads along x (unit stride); multiples of 32 keep loads coalesced
  int block_y = 2;           ///< threads along y
  int cells_per_thread = 4;  ///< consecutive y-cells each thread updates (1, 2, 4 or 8): more reuse of
                             ///< the rows above and below through registers, fewer threads

  /// Block of at most 1024 threads, x a multiple of 32, cells_per_thread one of the compiled set.
  bool valid() const {
    const bool cpt_ok = cells_per_thread == 1 || cells_per_thread == 2 || cells_per_thread == 4 || cells_per_thread == 8;
    return cpt_ok && block_x >= 32 && block_x % 32 == 0 && block_y >= 1 && block_x * block_y <= 1024;
  }
};

inline std::ostream& operator<<(std::ostream& os, const HeatCudaParams& p) {
  return os << "heat_cuda(bx=" << p.block_x << ",by=" << p.block_y << ",cpt=" << p.cells_per_thread << ')';
}

}  // namespace gridflow::kernels::stencil
