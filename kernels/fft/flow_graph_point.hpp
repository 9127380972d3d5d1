#pragma once
// The radix-2 butterfly of the flow graph, written once for the host loop and the CUDA kernels.
#include "kernels/fft/complex.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::fft {

/// a * b
template <class T>
GRIDFLOW_HOST_DEVICE inline Complex<T> complex_mul(Complex<T> a, Complex<T> b) {
  return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}

/// x' = x + y w, y' = x - y w
template <class T>
GRIDFLOW_HOST_DEVICE inline void flow_graph_butterfly(Complex<T>& x, Complex<T>& y, Complex<T> w) {
  const Complex<T> yw = complex_mul(y, w);
  y = {x.re - yw.re, x.im - yw.im};
  x = {x.re + yw.re, x.im + yw.im};
}

#if defined(__CUDACC__)
/// The four-step twiddle exp(sign 2 pi i e / length), length a power of two up to 2^24: the
/// argument 2 (e mod length) / length of sincospi is exact in float too, so the value is good
/// to an ulp or two.
template <class T>
__device__ inline Complex<T> radix2_four_step_twiddle(long long e, long long length, int sign) {
  const T x = T(2 * (e % length)) / T(length);
  T s, c;
  if constexpr (sizeof(T) == 4) sincospif(x, &s, &c);
  else sincospi(x, &s, &c);
  return {c, sign < 0 ? -s : s};
}
#endif

}  // namespace gridflow::kernels::fft
