#pragma once
// The real transforms of the flow_graph backend through the complex transform of half the length
// m = n/2 (n even): the n reals of a line seen as m complex values z_j = x_2j + i x_2j+1.
//   r2c: Z = FFT_m(z); X_k = E_k + W_n^k O_k, k = 0..m, with E_k = (Z_k + conj Z_{m-k}) / 2 and
//        O_k = (Z_k - conj Z_{m-k}) / 2i (indices mod m): launch_r2c_split.
//   c2r: Z'_k = (X_k + conj X_{m-k}) + i W_n^-k (X_k - conj X_{m-k}), k < m (bins 0 and m taken
//        real); z = IFFT_m(Z') is then x_2j + i x_2j+1 with the unnormalised scale: launch_c2r_merge.
// Plus the strided copies between a real layout and contiguous lines, and the length-1 case.
// No CUDA syntax here; defined in CUDA builds only. All launches asynchronous on `stream`.
#include <cstdint>

#include "kernels/fft/complex.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::fft {

/// `batch` lines of `count` elements: element j of line b at b * distance + j * stride.
struct StridedLines {
  std::int64_t count = 0, batch = 0, stride = 1, distance = 0;
  GRIDFLOW_HOST_DEVICE std::int64_t at(std::int64_t b, std::int64_t j) const { return b * distance + j * stride; }
};

/// dst[dst_lines.at(b, j)] = src[src_lines.at(b, j)] (same count and batch).
template <class T>
void launch_copy_real_lines(const T* src, const StridedLines& src_lines, T* dst, const StridedLines& dst_lines,
                            StreamHandle stream);

/// spectrum (lines of m + 1) = the r2c split of z_spectrum (contiguous lines of m = FFT_m(z));
/// w[k] = W_n^k = exp(-2 pi i k / n) for k < m.
template <class T>
void launch_r2c_split(const Complex<T>* z_spectrum, std::int64_t m, std::int64_t batch, const Complex<T>* w,
                      Complex<T>* spectrum, const StridedLines& spectrum_lines, StreamHandle stream);

/// z_spectrum (contiguous lines of m) = the c2r merge of spectrum (lines of m + 1); w as above.
template <class T>
void launch_c2r_merge(const Complex<T>* spectrum, const StridedLines& spectrum_lines, const Complex<T>* w,
                      Complex<T>* z_spectrum, std::int64_t m, std::int64_t batch, StreamHandle stream);

/// n = 1: r2c X_0 = x_0 (real_to_complex) or c2r x_0 = Re X_0, for each line.
template <class T>
void launch_real_length_one(const void* in, const StridedLines& in_lines, void* out, const StridedLines& out_lines,
                            bool real_to_complex, StreamHandle stream);

}  // namespace gridflow::kernels::fft
