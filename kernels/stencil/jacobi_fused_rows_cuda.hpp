#pragma once
// The rows kernel of K fused Jacobi sweeps (jacobi_fused_rows_cuda.cu), for the fused launcher.
#include "kernels/stencil/jacobi_fused_extent.cuh"
#include "kernels/stencil/jacobi_params.hpp"
#include "kernels/stencil/poisson_point.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::stencil {

/// Launches `sweeps` fused sweeps with the rows kernel and returns true where it takes the launch:
/// 2, 3 or 4 sweeps, cells_y 1 or 2, block_x 32, 64 or 128 (tiles of 2 block_x columns), strides
/// and fields aligned to pairs of values, and a block within its registers and shared memory.
/// Returns false otherwise, launching nothing.
template <class T>
bool launch_jacobi_fused_rows_cuda(const JacobiCudaParams& params, int sweeps, const T* in, T* out, const T* f,
                                   const FusedExtent& e, const PoissonCoefficients<T>& k, StreamHandle stream);

}  // namespace gridflow::kernels::stencil
