#pragma once
#include <ostream>

namespace gridflow::kernels::stencil {

/// Tunables of the CUDA Jacobi kernels (the seed paper's 3D parameters).
struct JacobiCudaParams {
  int block_x = 32;       ///< threads along x (unit stride); multiples of 32 keep loads coalesced
  int block_y = 8;        ///< threads along y
  int cells_z = 1;        ///< z-cells each thread walks (1, 2, 4, 8 or 16), keeping the planes below
                          ///< and above in registers
  bool shared_tile = false;  ///< stage the x-y tile plus halo in shared memory instead of L1 loads

  bool valid() const {
    const bool z_ok = cells_z == 1 || cells_z == 2 || cells_z == 4 || cells_z == 8 || cells_z == 16;
    return z_ok && block_x >= 32 && block_x % 32 == 0 && block_y >= 1 && block_x * block_y <= 1024;
  }
};

inline std::ostream& operator<<(std::ostream& os, const JacobiCudaParams& p) {
  return os << "jacobi_cuda(bx=" << p.block_x << ",by=" << p.block_y << ",cz=" << p.cells_z << ",smem=" << p.shared_tile
            << ')';
}

}  // namespace gridflow::kernels::stencil
