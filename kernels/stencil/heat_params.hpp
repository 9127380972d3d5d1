#pragma once
#include <ostream>

namespace gridflow::kernels::stencil {

/// Tunables of the CUDA heat kernel. The defaults run well untuned on Hopper.
struct HeatCudaParams {
  int block_x = 32;          ///< threads along x (unit stride); multiples of 32 keep loads coalesced
  int block_y = 8;           ///< threads along y
  int cells_per_thread = 1;  ///< consecutive y-cells each thread updates (1, 2, 4 or 8): more reuse of
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
