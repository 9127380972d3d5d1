#pragma once
// The device loop of the multigrid family's point-wise kernels (smoothers, residual, transfers,
// vector operations): blocks of 32 x 8 threads over (x, y), each thread walking a contiguous run
// of z-planes in batches of column_batch points whose values it computes (all their loads in
// flight at once) before it stores any. One point per thread, as core::for_each_cuda's tiles,
// keeps too few bytes in flight per SM to reach the copy bandwidth in float, and a separate
// block per plane loses the z-neighbours' cache reuse. Only .cu files include this.
//
// An Op has value(i, j, k) -> Value (reads only) and store(i, j, k, Value) (writes only). The
// stores of one batch follow its reads, so an op may update in place only where no point reads
// what another point of the launch writes (a red-black colour: reads of the other colour only).
#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "kernels/core/box_points.hpp"
#include "kernels/core/reduce_cuda.cuh"
#include "mesh/device.hpp"
#include "mesh/check.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::multigrid {

constexpr int column_block_x = 32, column_block_y = 8, column_batch = 4;
/// Blocks a launch aims at: a few waves over every SM of an H100/H200.
constexpr long long column_target_blocks = 4096;

namespace detail {

template <class Op>
__global__ void __launch_bounds__(column_block_x* column_block_y) column_march_kernel(core::BoxPoints<3> b, Op op) {
  const long long x = static_cast<long long>(blockIdx.x) * column_block_x + threadIdx.x;
  const long long y = static_cast<long long>(blockIdx.y) * column_block_y + threadIdx.y;
  if (x >= b.n[0] || y >= b.n[1]) return;
  const long long per_block = (b.n[2] + gridDim.z - 1) / gridDim.z;
  const long long z_begin = blockIdx.z * per_block;
  const long long z_end = z_begin + per_block < b.n[2] ? z_begin + per_block : b.n[2];
  const long long i = b.lo[0] + x, j = b.lo[1] + y;
  for (long long z = z_begin; z < z_end; z += column_batch) {
    typename Op::Value v[column_batch];
#pragma unroll
    for (int q = 0; q < column_batch; ++q)
      if (z + q < z_end) v[q] = op.value(i, j, b.lo[2] + z + q);
#pragma unroll
    for (int q = 0; q < column_batch; ++q)
      if (z + q < z_end) op.store(i, j, b.lo[2] + z + q, v[q]);
  }
}

}  // namespace detail

/// op at every point of `box` (global indices), asynchronously on `stream`; checks the launch.
template <class Op>
void column_march_cuda(const mesh::Box<3>& box, const Op& op, StreamHandle stream) {
  if (box.empty()) return;
  const auto b = core::BoxPoints<3>::of(box);
  const long long gx = (b.n[0] + column_block_x - 1) / column_block_x, gy = (b.n[1] + column_block_y - 1) / column_block_y;
  GRIDFLOW_REQUIRE(gx < (1ll << 31) && gy < 65535, "multigrid: box too large for a CUDA launch");
  const long long batches = (b.n[2] + column_batch - 1) / column_batch;
  const long long gz = std::max(1ll, std::min({batches, (column_target_blocks + gx * gy - 1) / (gx * gy), 65535ll}));
  detail::column_march_kernel<<<dim3(static_cast<unsigned>(gx), static_cast<unsigned>(gy), static_cast<unsigned>(gz)),
                                dim3(column_block_x, column_block_y), 0, stream>>>(b, op);
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
}

}  // namespace gridflow::kernels::multigrid

namespace gridflow::kernels::multigrid {

/// N sums in double, for reductions fused into a column march.
template <int N>
struct ColumnSums {
  double v[N] = {};
};

namespace detail {

constexpr long long column_sum_target_blocks = 2048;

// column_march_kernel that also adds up op.add(acc, value) over its points in z order (after
// each batch's stores); the block merges its threads' sums (halving tree), one partial per sum.
template <int N, class Op>
__global__ void __launch_bounds__(column_block_x* column_block_y) column_sums_kernel(core::BoxPoints<3> b, Op op, double* partial) {
  __shared__ double slots[column_block_x * column_block_y];
  const long long x = static_cast<long long>(blockIdx.x) * column_block_x + threadIdx.x;
  const long long y = static_cast<long long>(blockIdx.y) * column_block_y + threadIdx.y;
  ColumnSums<N> acc;
  if (x < b.n[0] && y < b.n[1]) {
    const long long per_block = (b.n[2] + gridDim.z - 1) / gridDim.z;
    const long long z_begin = blockIdx.z * per_block;
    const long long z_end = z_begin + per_block < b.n[2] ? z_begin + per_block : b.n[2];
    const long long i = b.lo[0] + x, j = b.lo[1] + y;
    for (long long z = z_begin; z < z_end; z += column_batch) {
      typename Op::Value v[column_batch];
#pragma unroll
      for (int q = 0; q < column_batch; ++q)
        if (z + q < z_end) v[q] = op.value(i, j, b.lo[2] + z + q);
#pragma unroll
      for (int q = 0; q < column_batch; ++q)
        if (z + q < z_end) {
          op.store(i, j, b.lo[2] + z + q, v[q]);
          op.add(acc, v[q]);
        }
    }
  }
  const long long block = blockIdx.x + static_cast<long long>(gridDim.x) * (blockIdx.y + static_cast<long long>(gridDim.y) * blockIdx.z);
  for (int s = 0; s < N; ++s) {
    core::block_reduce<core::Sum, core::BlockTree::halving>(acc.v[s], slots);
    if (threadIdx.x == 0 && threadIdx.y == 0) partial[block * N + s] = slots[0];
    __syncthreads();  // slots are reused by the next sum
  }
}

}  // namespace detail

/// column_march_cuda over `box` that also returns the sums of op.add over its points, in
/// double, on the host (blocks until they are there). The grid depends only on the box's
/// extents and the block partials are joined on the host in block order: the same bits every run.
template <int N, class Op>
ColumnSums<N> column_sums_cuda(const mesh::Box<3>& box, const Op& op, StreamHandle stream) {
  ColumnSums<N> total;
  if (box.empty()) return total;
  const auto b = core::BoxPoints<3>::of(box);
  const long long gx = (b.n[0] + column_block_x - 1) / column_block_x, gy = (b.n[1] + column_block_y - 1) / column_block_y;
  GRIDFLOW_REQUIRE(gx < (1ll << 31) && gy < 65535, "multigrid: box too large for a CUDA launch");
  const long long batches = (b.n[2] + column_batch - 1) / column_batch;
  const long long gz = std::max(1ll, std::min({batches, (detail::column_sum_target_blocks + gx * gy - 1) / (gx * gy), 65535ll}));
  const long long blocks = gx * gy * gz;
  auto partial = mesh::Buffer::on_stream(blocks * N * sizeof(double), stream);
  detail::column_sums_kernel<N><<<dim3(static_cast<unsigned>(gx), static_cast<unsigned>(gy), static_cast<unsigned>(gz)),
                                  dim3(column_block_x, column_block_y), 0, stream>>>(b, op, static_cast<double*>(partial.data()));
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
  std::vector<double> host(static_cast<std::size_t>(blocks * N));
  GRIDFLOW_CUDA_CHECK(cudaMemcpyAsync(host.data(), partial.data(), host.size() * sizeof(double), cudaMemcpyDeviceToHost, stream));
  GRIDFLOW_CUDA_CHECK(cudaStreamSynchronize(stream));
  for (long long q = 0; q < blocks; ++q)
    for (int s = 0; s < N; ++s) total.v[s] += host[q * N + s];
  return total;
}

}  // namespace gridflow::kernels::multigrid
