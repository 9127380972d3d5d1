#pragma once
// What the ring, warp and panel kernels share: the copy of values at the array's edges, mapped by
// the mode, 16-byte vectors to and from registers, and the x pass, V consecutive outputs from one
// window of vector loads of shared memory (ring_cuda.cuh: 16-byte vectors; warp_cuda.cu: pairs).
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include "kernels/filter/boundary_mode.hpp"
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

/// The `count` values of `row` from global column x into d value by value, mapped by the mode
/// (cval where it leaves the array of n columns from lo; values outside [xfirst, xlast], which no
/// output needs, left alone). Out of line: only the edges' threads run it, and inlined into every
/// copy its 64-bit remainders made the kernels' loops several times longer than their work.
template <class T>
__device__ __noinline__ void copy_mapped(T* d, const T* row, long long x, int count, long long xfirst, long long xlast, long long lo,
                                         long long n, BoundaryMode mode, T cval) {
  for (int v = 0; v < count; ++v) {
    const long long gx = x + v;
    if (gx < xfirst || gx > xlast) continue;
    const long long m = boundary_index(gx - lo, n, mode);
    if (m >= 0) __pipeline_memcpy_async(d + v, row + lo + m, sizeof(T));
    else d[v] = cval;
  }
}

template <class T, int V>
__device__ inline void unpack_vector(const typename VectorOf<T, V>::type& p, T* d) {
  if constexpr (V == 4) d[0] = p.x, d[1] = p.y, d[2] = p.z, d[3] = p.w;
  else d[0] = p.x, d[1] = p.y;
}

__device__ inline void store_vector(float* d, const float (&s)[4]) { *reinterpret_cast<float4*>(d) = make_float4(s[0], s[1], s[2], s[3]); }
__device__ inline void store_vector(double* d, const double (&s)[2]) { *reinterpret_cast<double2*>(d) = make_double2(s[0], s[1]); }
template <class T, int V>
__device__ inline void load_vector(T (&d)[V], const T* s) {
  unpack_vector<T, V>(*reinterpret_cast<const typename VectorOf<T, V>::type*>(s), d);
}

/// W consecutive values (W = 1, 2 or a 16-byte vector) to and from registers, one access.
template <class T, int W>
__device__ inline void load_values(T (&d)[W], const T* s) {
  if constexpr (W == 1) d[0] = *s;
  else load_vector<T, W>(d, s);
}
template <class T, int W>
__device__ inline void store_values(T* d, const T (&s)[W]) {
  if constexpr (W == 1) {
    *d = s[0];
  } else if constexpr (W == 2) {
    using P = typename VectorOf<T, 2>::type;
    *reinterpret_cast<P*>(d) = P{s[0], s[1]};
  } else {
    store_vector(d, s);
  }
}

/// boundary_index, its mapping out of line: inlined into every copy of a step, the 64-bit
/// remainders of the modes made the walk's loop several times longer than the work it repeats.
static __device__ __noinline__ long long mapped_index(long long i, long long n, BoundaryMode mode) { return boundary_index(i, n, mode); }
__device__ inline long long index_in(long long i, long long n, BoundaryMode mode) { return i >= 0 && i < n ? i : mapped_index(i, n, mode); }

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
