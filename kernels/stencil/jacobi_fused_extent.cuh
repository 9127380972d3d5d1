#pragma once
// The boxes of one launch of K fused Jacobi sweeps, which points its sweeps update, and what a
// block of a fused kernel may have: shared by the fused kernels (jacobi_fused_cuda.cu,
// jacobi_fused_rows_cuda.cu). CUDA only.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

#include "kernels/stencil/jacobi_params.hpp"
#include "mesh/check.hpp"

namespace gridflow::kernels::stencil {

// Sizes relative to the last sweep's update box U (its low corner is index 0 on every axis).
// Sweep s = 0..K-1 updates U.grow(K-1-s) intersected with the active box.
struct FusedExtent {
  int n[3];              // U's extents
  int a_lo[3], a_hi[3];  // the active box
  long long sy, sz;      // strides
  int chunk_z;           // planes of U each block writes
};

// The last sweep (0-based) that updates index x of an axis, -1 when none does: x lies in
// U.grow(K-1-s) for s <= K-1+x and s <= n+K-2-x, and in the active range or never.
template <int K>
__device__ inline int last_sweep_at(int x, int n, int a_lo, int a_hi) {
  if (x < a_lo || x > a_hi) return -1;
  return min(K - 1 + x, n + K - 2 - x);
}

// The first and last index of an axis a launch reads: the first sweep's range grown by one.
template <int K>
__device__ inline int read_lo(const FusedExtent& e, int d) {
  return max(-(K - 1), e.a_lo[d]) - 1;
}
template <int K>
__device__ inline int read_hi(const FusedExtent& e, int d) {
  return min(e.n[d] - 1 + K - 1, e.a_hi[d]) + 1;
}

// Whether indices lo..hi of axis d are all active and read by the launch.
template <int K>
__device__ inline bool span_inside(const FusedExtent& e, int d, int lo, int hi) {
  return lo >= max(e.a_lo[d], read_lo<K>(e, d)) && hi <= min(e.a_hi[d], read_hi<K>(e, d));
}

// Whether every plane a sweep of a block writing planes z_lo..z_hi needs (z_lo - K + 1 ..
// z_hi + K - 1) is active; then every point of them that the block computes is updated.
template <int K>
__device__ inline bool chunk_inside(const FusedExtent& e, int z_lo, int z_hi) {
  return z_lo - K + 1 >= e.a_lo[2] && z_hi + K - 1 <= e.a_hi[2];
}

// What a block of `kernel` may have on the current device: threads (its registers limit them) and
// dynamic shared memory (opted in up to the device's limit). Asked once per kernel instance.
struct FusedLimits {
  int threads;
  std::size_t shared_bytes;
};

template <class Kernel>
FusedLimits fused_limits(Kernel kernel) {
  int device = 0, optin = 0;
  GRIDFLOW_CUDA_CHECK(cudaGetDevice(&device));
  GRIDFLOW_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  cudaFuncAttributes a{};
  GRIDFLOW_CUDA_CHECK(cudaFuncGetAttributes(&a, kernel));
  const int shared = std::min(optin - static_cast<int>(a.sharedSizeBytes), static_cast<int>(JacobiCudaParams::max_fused_shared_bytes));
  GRIDFLOW_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shared));
  return {a.maxThreadsPerBlock, static_cast<std::size_t>(shared)};
}

}  // namespace gridflow::kernels::stencil
