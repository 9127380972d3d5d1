// The warp filter kernel (FilterVariant::warp; the geometry is warp_block.hpp): filters along x
// alone of one length K (a 1D signal, or rows apart), a warp per piece of a row.
//
// Each warp copies its `cells` vectors of V values per thread of one row, with NH halo vectors on
// each side (by the first and last NH threads), into shared memory of its own, asynchronously:
// one copy per vector where it lies inside the array and is needed (all but the edges' lanes),
// else value by value mapped by the mode. After a __syncwarp, each thread filters its vectors
// from windows of that memory and stores them as vectors. No warp waits for another, and a warp
// has all its copies in flight at once. Every output is the chain of a product and fused
// multiply-adds of axis_pass_point, so the result equals the host reference bit for bit.
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <sstream>

#include "kernels/filter/correlate_cuda.hpp"
#include "kernels/filter/vector_pass.cuh"
#include "kernels/filter/warp_block.hpp"
#include "mesh/check.hpp"

namespace gridflow::kernels::filter {
namespace {

template <class T>
using Pair = typename VectorOf<T, warp_vector>::type;

/// Copies the V values of `row` from global column x into d: one asynchronous copy where every
/// value lies inside the array and in [xfirst, xlast] (what outputs need), else copy_mapped.
template <class T>
__device__ inline void copy_vector(const RingArgs<T, 2>& a, T* d, const T* row, long long x, long long xfirst, long long xlast) {
  if (a.aligned && x >= a.glo[0] && x + warp_vector <= a.glo[0] + a.gn[0] && x >= xfirst && x + warp_vector - 1 <= xlast)
    __pipeline_memcpy_async(d, row + x, sizeof(T) * warp_vector);
  else
    copy_mapped(d, row, x, warp_vector, xfirst, xlast, a.glo[0], a.gn[0], a.mode, a.cval);
}

/// Stores V values at d, of which `left` (if fewer) lie in the update box.
template <class T>
__device__ inline void store_vector(const RingArgs<T, 2>& a, T* d, const T (&r)[warp_vector], long long left) {
  if (a.aligned && left >= warp_vector) {
    *reinterpret_cast<Pair<T>*>(d) = Pair<T>{r[0], r[1]};
    return;
  }
#pragma unroll
  for (int v = 0; v < warp_vector; ++v)
    if (v < left) d[v] = r[v];
}

template <class T, int K, int U>
__global__ void __launch_bounds__(max_warp_threads) warp_line_kernel(const __grid_constant__ RingArgs<T, 2> a) {
  constexpr int V = warp_vector, R = K / 2, NH = warp_halo_vectors(K), D0 = NH * V - R;
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  const int lane = static_cast<int>(threadIdx.x) & 31, warp_in_block = static_cast<int>(threadIdx.x) >> 5;
  T* const line = reinterpret_cast<T*>(shared_bytes) + static_cast<long long>(warp_in_block) * warp_line_values(K, U);
  // The warp's row and columns (from xb).
  const long long span = 32LL * U * V, chunks = (a.un[0] + span - 1) / span;
  const long long warp = static_cast<long long>(blockIdx.x) * (blockDim.x >> 5) + warp_in_block;
  const long long r = warp / chunks;
  if (r >= a.un[2]) return;
  const long long w = a.ulo[2] + r, xb = a.ulo[0] + (warp - r * chunks) * span;
  const long long uend0 = a.ulo[0] + a.un[0], xfirst = a.ulo[0] - R, xlast = uend0 - 1 + (K - 1 - R);
  const T* const row = a.in.data + a.in.offset(0, w);
#pragma unroll
  for (int u = 0; u < U; ++u) copy_vector(a, line + (NH + u * 32 + lane) * V, row, xb + (u * 32 + lane) * V, xfirst, xlast);
  if (lane < NH) copy_vector(a, line + lane * V, row, xb - (NH - lane) * V, xfirst, xlast);
  if (lane >= 32 - NH) copy_vector(a, line + (NH + 32 * U + lane - (32 - NH)) * V, row, xb + span + (lane - (32 - NH)) * V, xfirst, xlast);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncwarp();
#pragma unroll
  for (int u = 0; u < U; ++u) {
    const long long x = xb + (u * 32 + lane) * V;
    if (x >= uend0) break;
    T s[V];
    window_pass<T, V, K, D0>(s, a.w[0], line + (u * 32 + lane) * V);
    store_vector(a, a.out.data + a.out.offset(x, w), s, uend0 - x);
  }
}

/// The kernel of length K for `cells`, 2 or 4.
template <class T, int K>
void launch_cells(const RingArgs<T, 2>& a, int cells, unsigned blocks, unsigned threads, std::size_t bytes, StreamHandle stream) {
  void (*kernel)(RingArgs<T, 2>) = cells == 2 ? warp_line_kernel<T, K, 2> : warp_line_kernel<T, K, 4>;
  if (bytes > 48 * 1024)
    GRIDFLOW_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
  kernel<<<blocks, threads, bytes, stream>>>(a);
}

}  // namespace

template <class T>
void launch_warp_cuda(const FilterTunables& tunables, mesh::FieldView<const T, 2> in, mesh::FieldView<T, 2> out, const mesh::Box<2>& update,
                      const std::array<std::vector<double>, 2>& axis, const Extension<2>& e, T cval, StreamHandle stream) {
  GRIDFLOW_REQUIRE(tunables.valid() && tunables.variant == FilterVariant::warp, "invalid warp filter tunables");
  if (update.empty()) return;
  const int k = warp_length<2>(axis);
  GRIDFLOW_REQUIRE(k != 0, "filter warp: no kernel compiled for these weights (warp_length)");
  const RingArgs<T, 2> a = ring_args<T, 2>(tunables, in, out, update, axis, e, cval);
  // Warps: pieces of 32 x cells x V columns per row, every row.
  const long long columns = 32LL * warp_vector * tunables.cells, warps = (a.un[0] + columns - 1) / columns * a.un[2];
  const long long per_block = tunables.threads / 32, blocks = (warps + per_block - 1) / per_block;
  GRIDFLOW_REQUIRE(blocks <= 0x7fffffffll, "filter warp: too many blocks; use more pairs per thread");
  const std::size_t bytes = warp_shared_bytes<T>(tunables, k);
  if (bytes > 48 * 1024 && bytes > device_shared_bytes_per_block()) {
    std::ostringstream os;
    os << "filter warp: " << tunables << " needs " << bytes << " bytes of shared memory per block (the device offers "
       << device_shared_bytes_per_block() << "): use fewer threads or pairs per thread";
    throw Error(os.str());
  }
  const auto b = static_cast<unsigned>(blocks), t = static_cast<unsigned>(tunables.threads);
  switch (k) {
    case 3: launch_cells<T, 3>(a, tunables.cells, b, t, bytes, stream); break;
    case 5: launch_cells<T, 5>(a, tunables.cells, b, t, bytes, stream); break;
    case 9: launch_cells<T, 9>(a, tunables.cells, b, t, bytes, stream); break;
    default: launch_cells<T, 33>(a, tunables.cells, b, t, bytes, stream); break;
  }
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
}

template void launch_warp_cuda<float>(const FilterTunables&, mesh::FieldView<const float, 2>, mesh::FieldView<float, 2>, const mesh::Box<2>&,
                                      const std::array<std::vector<double>, 2>&, const Extension<2>&, float, StreamHandle);
template void launch_warp_cuda<double>(const FilterTunables&, mesh::FieldView<const double, 2>, mesh::FieldView<double, 2>,
                                       const mesh::Box<2>&, const std::array<std::vector<double>, 2>&, const Extension<2>&, double, StreamHandle);

}  // namespace gridflow::kernels::filter
