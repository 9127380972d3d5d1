#pragma once
// The device side of every kernel family's simple variant: op(i, j) (2D) or op(i, j, k) (3D), a
// __device__ call of a point function, at every point of a box, one thread per point,
// asynchronously on the caller's stream. Only .cu files include this.
#include <cuda_runtime.h>

#include <algorithm>

#include "kernels/core/box_points.hpp"
#include "mesh/check.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::core {

/// How threads are laid over the box. Every point is computed by the same op whatever the
/// layout, so the results do not depend on it; the speed does.
enum class ThreadLayout {
  /// Blocks of 32 x 8 threads over (x, y), each thread walking z-planes: a stencil's neighbours
  /// in y come from the block's own cache lines (the multigrid kernels).
  tiles,
  /// One thread per point in box order, 256 per block, striding over the grid: every lane has
  /// work whatever the box's shape (thin halo slabs, pointwise updates).
  linear,
};

namespace detail {

template <int Dim, class Op>
__global__ void for_each_tiles_kernel(BoxPoints<Dim> b, Op op) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= b.n[0] || y >= b.n[1]) return;
  for (int z = blockIdx.z; z < b.n[2]; z += gridDim.z) {
    if constexpr (Dim == 2) op(b.lo[0] + x, b.lo[1] + y);
    else op(b.lo[0] + x, b.lo[1] + y, b.lo[2] + z);
  }
}

constexpr int linear_threads = 256;

template <class Op>
__global__ void for_each_index_kernel(long long n, Op op) {
  for (long long q = blockIdx.x * (long long)linear_threads + threadIdx.x; q < n; q += (long long)linear_threads * gridDim.x)
    op(q);
}

template <int Dim, class Op>
__global__ void for_each_linear_kernel(BoxPoints<Dim> b, Op op) {
  for (long long q = blockIdx.x * (long long)linear_threads + threadIdx.x; q < b.size;
       q += (long long)linear_threads * gridDim.x)
    b.at(q, op);
}

}  // namespace detail

/// op(i, j[, k]) for every point of `box` (global indices), asynchronously on `stream`; checks the launch.
template <int Dim, class Op>
void for_each_cuda(const mesh::Box<Dim>& box, const Op& op, StreamHandle stream, ThreadLayout layout = ThreadLayout::tiles) {
  if (box.empty()) return;
  const BoxPoints<Dim> b = BoxPoints<Dim>::of(box);
  if (layout == ThreadLayout::tiles) {
    GRIDFLOW_REQUIRE(b.n[0] < (1ll << 31) && b.n[1] < (1ll << 31) && b.n[2] < (1ll << 31),
                     "box too large for a tiled CUDA loop");
    const dim3 block(32, 8);
    const dim3 grid(static_cast<unsigned>((b.n[0] + 31) / 32), static_cast<unsigned>((b.n[1] + 7) / 8),
                    static_cast<unsigned>(std::min<long long>(b.n[2], 65535)));
    detail::for_each_tiles_kernel<Dim><<<grid, block, 0, stream>>>(b, op);
  } else {
    const auto blocks = static_cast<unsigned>(std::min<long long>((b.size + detail::linear_threads - 1) / detail::linear_threads, 65535));
    detail::for_each_linear_kernel<Dim><<<blocks, detail::linear_threads, 0, stream>>>(b, op);
  }
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
}

/// op(q) for q = 0 .. n-1, one thread per index as in the linear layout, asynchronously on
/// `stream`; checks the launch. For kernels that walk a buffer in its order and find the field
/// point themselves (pack: one division fewer per value than going through the box's indices,
/// which showed as 15% on the slab transposes).
template <class Op>
void for_each_index_cuda(long long n, const Op& op, StreamHandle stream) {
  if (n <= 0) return;
  const auto blocks = static_cast<unsigned>(std::min<long long>((n + detail::linear_threads - 1) / detail::linear_threads, 65535));
  detail::for_each_index_kernel<<<blocks, detail::linear_threads, 0, stream>>>(n, op);
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
}

}  // namespace gridflow::kernels::core
