#pragma once
// The real transforms through the complex transform of half the length m = n/2 (flow_graph_real_cuda.hpp):
// the split after the r2c's complex transform and the merge before the c2r's, one bin each.
#include "kernels/fft/complex.hpp"
#include "kernels/fft/flow_graph_point.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::fft {

/// r2c bin k (0..m) of n = 2m reals from Z = FFT_m(x_2j + i x_2j+1): X_k = E + w O with
/// E = (a + c) / 2, O = (a - c) / 2i, a = Z_{k mod m}, c = conj Z_{(m-k) mod m}, w = W_n^k.
template <class T>
GRIDFLOW_HOST_DEVICE inline Complex<T> r2c_split_point(Complex<T> z_k, Complex<T> z_m_minus_k, Complex<T> w) {
  const Complex<T> a = z_k, c = {z_m_minus_k.re, -z_m_minus_k.im};
  const Complex<T> even = {(a.re + c.re) / 2, (a.im + c.im) / 2};
  const Complex<T> odd = {(a.im - c.im) / 2, -(a.re - c.re) / 2};  // (a - c) / 2i
  const Complex<T> t = complex_mul(w, odd);
  return {even.re + t.re, even.im + t.im};
}

/// c2r bin k (0..m-1) of the complex transform whose inverse is x_2j + i x_2j+1:
/// Z'_k = E + i O with E = a + c, O = (a - c) conj(w), a = X_k, c = conj X_{m-k}, w = W_n^k. Bins 0
/// and m are real: k == 0 drops the imaginary parts of X_0 and X_m.
template <class T>
GRIDFLOW_HOST_DEVICE inline Complex<T> c2r_merge_point(Complex<T> x_k, Complex<T> x_m_minus_k, Complex<T> w, bool k_is_zero) {
  Complex<T> a = x_k, c = {x_m_minus_k.re, -x_m_minus_k.im};
  if (k_is_zero) a.im = c.im = T(0);
  const Complex<T> even = {a.re + c.re, a.im + c.im};
  const Complex<T> odd = complex_mul(Complex<T>{a.re - c.re, a.im - c.im}, Complex<T>{w.re, -w.im});
  return {even.re - odd.im, even.im + odd.re};
}

}  // namespace gridflow::kernels::fft
