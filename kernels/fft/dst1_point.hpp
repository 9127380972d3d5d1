#pragma once
// The type-I discrete sine transform through a real FFT of the same length (Numerical Recipes'
// sinft): F_k = sum_{j=1}^{N-1} x_j sin(pi j k / N), k = 1..N-1, from
//   fold:    y_0 = 0, y_j = sin(pi j / N) (x_j + x_{N-j}) + (x_j - x_{N-j}) / 2
//   FFT:     Y_k = sum_{j=0}^{N-1} y_j exp(-2 pi i j k / N), k = 0..N/2 (FFTW's and cuFFT's sign)
//   unfold:  F_{2k} = -Im Y_k,  F_{2k+1} = F_{2k-1} + Re Y_k,  F_1 = Re Y_0 / 2.
// The symmetric part of y carries the odd outputs (as differences), the antisymmetric part the
// even ones; no doubled line is ever stored.
#include "kernels/fft/complex.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::fft {

/// y_j = sin(pi j / N) (x_j + x_{N-j}) + (x_j - x_{N-j}) / 2 for j = 1..N-1.
template <class T>
GRIDFLOW_HOST_DEVICE inline T dst1_fold_point(T x_j, T x_mirror, T sin_pi_j_over_n) {
  return sin_pi_j_over_n * (x_j + x_mirror) + T(0.5) * (x_j - x_mirror);
}

/// F_{2k} = -Im Y_k for k >= 1.
template <class T>
GRIDFLOW_HOST_DEVICE inline T dst1_even_point(Complex<T> y) {
  return -y.im;
}

/// F_{2k+1} - F_{2k-1}: Re Y_k for k >= 1, and Re Y_0 / 2 for k = 0 (where F_{-1} = -F_1).
template <class T>
GRIDFLOW_HOST_DEVICE inline T dst1_odd_increment_point(Complex<T> y, long long k) {
  return k == 0 ? T(0.5) * y.re : y.re;
}

}  // namespace gridflow::kernels::fft
