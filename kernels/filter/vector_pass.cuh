#pragma once
// The x pass of the ring and warp kernels: V consecutive outputs from one window of vector loads
// of shared memory (ring_cuda.cuh: 16-byte vectors; warp_cuda.cu: pairs).
#include <cuda_runtime.h>

#include "kernels/filter/correlate_point.hpp"

namespace gridflow::kernels::filter {

/// The CUDA vector of V values of T.
template <class T, int V>
struct VectorOf;
template <>
struct VectorOf<float, 4> {
  using type = float4;
};
template <>
struct VectorOf<float, 2> {
  using type = float2;
};
template <>
struct VectorOf<double, 2> {
  using type = double2;
};

template <class T, int V>
__device__ inline void unpack_vector(const typename VectorOf<T, V>::type& p, T* d) {
  if constexpr (V == 4) d[0] = p.x, d[1] = p.y, d[2] = p.z, d[3] = p.w;
  else d[0] = p.x, d[1] = p.y;
}

/// The pass of length K over V consecutive outputs whose first tap is src[D0] (src aligned to a
/// vector): NV vector loads, then a product and K - 1 FMAs per output (K = 1: a copy).
template <class T, int V, int K, int D0>
__device__ inline void window_pass(T (&s)[V], const T* w, const T* src) {
  constexpr int NV = (D0 + V + K - 1 + V - 1) / V;
  T win[NV * V];
#pragma unroll
  for (int q = 0; q < NV; ++q) unpack_vector<T, V>(reinterpret_cast<const typename VectorOf<T, V>::type*>(src)[q], win + q * V);
  if constexpr (K == 1) {
#pragma unroll
    for (int v = 0; v < V; ++v) s[v] = win[D0 + v];
  } else {
#pragma unroll
    for (int v = 0; v < V; ++v) s[v] = w[0] * win[D0 + v];
#pragma unroll
    for (int j = 1; j < K; ++j)
#pragma unroll
      for (int v = 0; v < V; ++v) s[v] = multiply_add(w[j], win[D0 + v + j], s[v]);
  }
}

}  // namespace gridflow::kernels::filter
