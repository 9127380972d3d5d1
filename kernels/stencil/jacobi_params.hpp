#pragma once
#include <ostream>

namespace gridflow::kernels::stencil {

/// Tunables of the CUDA Jacobi kernels (the seed paper's 3D parameters, plus vector width along x).
/// The defaults are among the best worst cases over 256^3 and 512^3, float and double, on an H200
/// (bench/results/jacobi3d_kernel_h200.json): 95%/98% of the copy bandwidth at 512^3 float/double,
/// where one cell per thread reached at best 78%/92%. The shared tile lost in every case there
/// (at best 53%): Hopper's L1 serves the neighbours.
struct JacobiCudaParams {
  int block_x = 32;       ///< threads along x (unit stride); multiples of 32 keep loads coalesced
  int block_y = 8;        ///< threads along y
  int cells_z = 4;        ///< z-cells each thread walks (1, 2, 4, 8 or 16), keeping the planes below
                          ///< and above in registers
  bool shared_tile = false;  ///< stage the x-y tile plus halo in shared memory instead of L1 loads
  int cells_x = 2;        ///< consecutive x-cells per thread (1, 2 or 4), read and written as one
                          ///< vector; fewer load instructions per byte (matters most in float).
                          ///< L1 variant only: the shared tile ignores it

  bool valid() const {
    const bool z_ok = cells_z == 1 || cells_z == 2 || cells_z == 4 || cells_z == 8 || cells_z == 16;
    const bool x_ok = cells_x == 1 || cells_x == 2 || cells_x == 4;
    return z_ok && x_ok && (cells_x == 1 || !shared_tile) && block_x >= 32 && block_x % 32 == 0 && block_y >= 1 && block_x * block_y <= 1024;
  }
};

inline std::ostream& operator<<(std::ostream& os, const JacobiCudaParams& p) {
  return os << "jacobi_cuda(bx=" << p.block_x << ",by=" << p.block_y << ",cz=" << p.cells_z << ",smem=" << p.shared_tile
            << ",cx=" << p.cells_x << ')';
}

}  // namespace gridflow::kernels::stencil
