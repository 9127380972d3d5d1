#pragma once
// Launchers of the multigrid CUDA kernels: an operation object's operator()(i, j, k) (a
// __device__ call of a point function) for every point of a box. Only .cu files include this.
#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "mesh/box.hpp"
#include "mesh/check.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::multigrid::cuda {

struct BoxShape {
  long long lo[3];
  int n[3];
};

inline BoxShape shape_of(const mesh::Box<3>& box) {
  GRIDFLOW_REQUIRE(box.extent(0) < (1ll << 31) && box.extent(1) < (1ll << 31) && box.extent(2) < (1ll << 31),
                   "box too large for the multigrid CUDA kernels");
  return {{box.lo[0], box.lo[1], box.lo[2]},
          {static_cast<int>(box.extent(0)), static_cast<int>(box.extent(1)), static_cast<int>(box.extent(2))}};
}

// One thread per (x, y) of the box; the z-planes are split over blockIdx.z.
template <class Op>
__global__ void for_each_point_kernel(BoxShape b, Op op) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= b.n[0] || y >= b.n[1]) return;
  for (int z = blockIdx.z; z < b.n[2]; z += gridDim.z) op(b.lo[0] + x, b.lo[1] + y, b.lo[2] + z);
}

/// op(i, j, k) for every point of `box`, asynchronously on `stream`.
template <class Op>
void for_each_point(const mesh::Box<3>& box, const Op& op, StreamHandle stream) {
  if (box.empty()) return;
  const BoxShape s = shape_of(box);
  const dim3 block(32, 8);
  const dim3 grid((s.n[0] + 31) / 32, (s.n[1] + 7) / 8, std::min(s.n[2], 65535));
  for_each_point_kernel<<<grid, block, 0, stream>>>(s, op);
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
}

constexpr int sum_threads = 256;
constexpr int max_sum_blocks = 1024;

// Grid-stride over the box's points in x-fastest order; one partial sum per block.
template <class Term>
__global__ void sum_kernel(BoxShape b, unsigned long long size, Term term, double* partial) {
  __shared__ double s[sum_threads];
  double acc = 0;
  for (unsigned long long q = blockIdx.x * (unsigned long long)sum_threads + threadIdx.x; q < size;
       q += (unsigned long long)sum_threads * gridDim.x) {
    const unsigned long long row = q / b.n[0];
    const long long x = static_cast<long long>(q - row * b.n[0]);
    const long long y = static_cast<long long>(row % b.n[1]), z = static_cast<long long>(row / b.n[1]);
    acc += term(b.lo[0] + x, b.lo[1] + y, b.lo[2] + z);
  }
  s[threadIdx.x] = acc;
  __syncthreads();
  for (int h = sum_threads / 2; h > 0; h /= 2) {
    if (threadIdx.x < h) s[threadIdx.x] += s[threadIdx.x + h];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
}

/// The sum over `box` of term(i, j, k) (a double). Blocks. The block partials are added on the
/// host in block order, so the result does not vary from run to run.
template <class Term>
double sum_over_points(const mesh::Box<3>& box, const Term& term, StreamHandle stream) {
  if (box.empty()) return 0;
  const BoxShape s = shape_of(box);
  const auto size = static_cast<unsigned long long>(box.size());
  const int blocks = static_cast<int>(std::min<unsigned long long>((size + sum_threads - 1) / sum_threads, max_sum_blocks));
  // Stream-ordered allocation comes from the driver's pool: cheap enough for every dot product
  // of a coarse-grid CG solve, where cudaMalloc/cudaFree would dominate.
  double* partial = nullptr;
  GRIDFLOW_CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&partial), blocks * sizeof(double), stream));
  sum_kernel<<<blocks, sum_threads, 0, stream>>>(s, size, term, partial);
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
  std::vector<double> host(blocks);
  GRIDFLOW_CUDA_CHECK(cudaMemcpyAsync(host.data(), partial, blocks * sizeof(double), cudaMemcpyDeviceToHost, stream));
  GRIDFLOW_CUDA_CHECK(cudaFreeAsync(partial, stream));
  GRIDFLOW_CUDA_CHECK(cudaStreamSynchronize(stream));
  double total = 0;
  for (double v : host) total += v;
  return total;
}

}  // namespace gridflow::kernels::multigrid::cuda
