#pragma once
// Reductions on the device: the tree that combines a thread block's values, and the
// deterministic reduction over a box built on it. Only .cu files include this.
#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "kernels/core/box_points.hpp"
#include "kernels/core/reducers.hpp"
#include "mesh/check.hpp"
#include "mesh/device.hpp"

namespace gridflow::kernels::core {

/// The order in which a block's values are merged. The two orders give different last bits, and
/// each is what its kernels have always computed, so both stay.
enum class BlockTree {
  /// slot t merges slot t + h for h = threads/2, threads/4, ... 1: power-of-two blocks
  /// (reduce_cuda's 256 threads).
  halving,
  /// slot t merges slot t + s where t is a multiple of 2s, for s = 1, 2, 4 ...: blocks of any
  /// size (the tuned shapes of the Jacobi sweeps).
  pairwise,
};

/// Every thread of the block passes its `value`; on return slots[0] holds the block's reduction,
/// visible to every thread. `slots`: shared memory, one Value per thread of the block. Every
/// thread must call it (it synchronizes the block).
template <class Reducer, BlockTree Tree>
__device__ void block_reduce(typename Reducer::Value value, typename Reducer::Value* slots) {
  const int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const int threads = blockDim.x * blockDim.y * blockDim.z;
  slots[t] = value;
  __syncthreads();
  if constexpr (Tree == BlockTree::halving) {
    for (int h = threads / 2; h > 0; h /= 2) {
      if (t < h) Reducer::merge(slots[t], slots[t + h]);
      __syncthreads();
    }
  } else {
    for (int s = 1; s < threads; s *= 2) {
      if (t % (2 * s) == 0 && t + s < threads) Reducer::merge(slots[t], slots[t + s]);
      __syncthreads();
    }
  }
}

/// Stores the block's sum of `value` (pairwise tree in `slots`, one double per thread) in
/// partials[block number], blocks numbered x fastest; BlockSums::total adds them in that order,
/// so a sum has the same bits on every run of the same launch shape.
__device__ inline void store_block_sum(double value, double* slots, double* partials) {
  block_reduce<Sum, BlockTree::pairwise>(value, slots);
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0)
    partials[blockIdx.x + gridDim.x * (blockIdx.y + static_cast<long long>(gridDim.y) * blockIdx.z)] = slots[0];
}

namespace detail {

constexpr int reduce_threads = 256;
constexpr int max_reduce_blocks = 1024;

// Each thread joins the terms of its points, striding over the box in box order; the block
// merges them (halving tree) into one partial per block.
template <class Reducer, int Dim, class Term>
__global__ void reduce_kernel(BoxPoints<Dim> b, Term term, typename Reducer::Value* partial) {
  __shared__ typename Reducer::Value slots[reduce_threads];
  typename Reducer::Value acc = Reducer::identity();
  for (long long q = blockIdx.x * (long long)reduce_threads + threadIdx.x; q < b.size; q += (long long)reduce_threads * gridDim.x)
    Reducer::join(acc, b.at(q, term));
  block_reduce<Reducer, BlockTree::halving>(acc, slots);
  if (threadIdx.x == 0) partial[blockIdx.x] = slots[0];
}

// One block adds `count` partials: thread t the partials t, t + threads, ... in turn, then the
// halving tree. A fixed order, whatever the timing.
template <class Value>
__global__ void sum_partials_kernel(const Value* partials, long long count, Value* total) {
  __shared__ Value slots[reduce_threads];
  Value acc = 0;
  for (long long q = threadIdx.x; q < count; q += reduce_threads) acc += partials[q];
  block_reduce<Sum, BlockTree::halving>(acc, slots);
  if (threadIdx.x == 0) *total = slots[0];
}

}  // namespace detail

/// Scratch for the per-block sums of one launch (store_block_sum) and their fixed-order total.
class BlockSums {
 public:
  /// Room for `blocks` partials plus the total, ordered on `stream`; call before the launch.
  double* partials(long long blocks, StreamHandle stream) {
    m_blocks = blocks;
    m_buffer = mesh::Buffer::on_stream(static_cast<std::size_t>(blocks + 1) * sizeof(double), stream);
    return static_cast<double*>(m_buffer.data());
  }
  /// The sum of the partials, on the host (blocks until the launch has finished).
  double total(StreamHandle stream) const {
    if (m_blocks == 0) return 0;
    double* partials = static_cast<double*>(m_buffer.data());
    detail::sum_partials_kernel<double><<<1, detail::reduce_threads, 0, stream>>>(partials, m_blocks, partials + m_blocks);
    GRIDFLOW_CUDA_CHECK(cudaGetLastError());
    double host = 0;
    GRIDFLOW_CUDA_CHECK(cudaMemcpyAsync(&host, partials + m_blocks, sizeof(double), cudaMemcpyDeviceToHost, stream));
    GRIDFLOW_CUDA_CHECK(cudaStreamSynchronize(stream));
    return host;
  }

 private:
  mesh::Buffer m_buffer;
  long long m_blocks = 0;
};

/// The reduction over `box` of term(i, j[, k]) (a Reducer::Value), on `stream`; blocks until the
/// result is on the host. The block count depends only on the box's size and the block partials
/// are joined on the host in block order, so the result has the same bits on every run.
template <class Reducer, int Dim, class Term>
typename Reducer::Value reduce_cuda(const mesh::Box<Dim>& box, const Term& term, StreamHandle stream) {
  using Value = typename Reducer::Value;
  Value total = Reducer::identity();
  if (box.empty()) return total;
  const BoxPoints<Dim> b = BoxPoints<Dim>::of(box);
  const int blocks = static_cast<int>(
      std::min<long long>((b.size + detail::reduce_threads - 1) / detail::reduce_threads, detail::max_reduce_blocks));
  // Stream-ordered memory comes from the driver's pool: cheap enough for every dot product of a
  // coarse-grid CG solve, where cudaMalloc/cudaFree would dominate.
  auto partial = mesh::Buffer::on_stream(blocks * sizeof(Value), stream);
  detail::reduce_kernel<Reducer, Dim><<<blocks, detail::reduce_threads, 0, stream>>>(b, term, static_cast<Value*>(partial.data()));
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
  std::vector<Value> host(static_cast<std::size_t>(blocks));
  GRIDFLOW_CUDA_CHECK(cudaMemcpyAsync(host.data(), partial.data(), blocks * sizeof(Value), cudaMemcpyDeviceToHost, stream));
  GRIDFLOW_CUDA_CHECK(cudaStreamSynchronize(stream));
  for (const Value& v : host) Reducer::join(total, v);
  return total;
}

}  // namespace gridflow::kernels::core
