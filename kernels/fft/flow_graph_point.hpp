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

}  // namespace gridflow::kernels::fft
