#pragma once
// Test support for the flow-graph FFT suites (unit and GPU): random lines, placing them in and
// reading them out of a buffer with an FftLayout's stride and distances, an exact reference (a
// direct DFT in long double) and the relative L2 error. Lines are held contiguously in
// std::complex<double>: batch x in_line_elements() going in, batch x out_line_elements() coming
// out (real lines have zero imaginary parts).
#include <cmath>
#include <complex>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "kernels/fft/fft_plan.hpp"

namespace gridflow::testing {

using Lines = std::vector<std::complex<double>>;
using kernels::fft::FftDirection;
using kernels::fft::FftKind;
using kernels::fft::FftLayout;

inline bool input_is_real(const FftLayout& l) { return l.kind == FftKind::r2c; }
inline bool output_is_real(const FftLayout& l) { return l.kind == FftKind::c2r; }

/// Values uniform in [-1, 1), rounded to T (so the reference sees exactly what the plan sees);
/// real for r2c input.
template <class T>
Lines random_input_lines(const FftLayout& l, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  Lines x(l.batch * l.in_line_elements());
  for (auto& v : x) {
    const double re = static_cast<T>(u(gen));
    const double im = input_is_real(l) ? 0.0 : static_cast<double>(static_cast<T>(u(gen)));
    v = {re, im};
  }
  return x;
}

/// Scalars per buffer element: 1 for real buffers, 2 for complex ones.
inline int scalars(bool real) { return real ? 1 : 2; }

/// The input buffer (scalars of T) holding `lines` at the layout's input positions; the gaps
/// between them hold `gap`.
template <class T>
std::vector<T> input_buffer(const FftLayout& l, const Lines& lines, T gap = T(0)) {
  const int s = scalars(input_is_real(l));
  std::vector<T> buf(l.in_elements() * s, gap);
  for (std::int64_t b = 0; b < l.batch; ++b)
    for (std::int64_t j = 0; j < l.in_line_elements(); ++j) {
      const auto p = (b * l.resolved_in_distance() + j * l.stride) * s;
      const auto& v = lines[b * l.in_line_elements() + j];
      buf[p] = static_cast<T>(v.real());
      if (s == 2) buf[p + 1] = static_cast<T>(v.imag());
    }
  return buf;
}

/// An output buffer (scalars of T) filled with `fill`.
template <class T>
std::vector<T> output_buffer(const FftLayout& l, T fill) {
  return std::vector<T>(l.out_elements() * scalars(output_is_real(l)), fill);
}

/// The lines at the layout's output positions of `buf`.
template <class T>
Lines output_lines(const FftLayout& l, const std::vector<T>& buf) {
  const int s = scalars(output_is_real(l));
  Lines y(l.batch * l.out_line_elements());
  for (std::int64_t b = 0; b < l.batch; ++b)
    for (std::int64_t k = 0; k < l.out_line_elements(); ++k) {
      const auto p = (b * l.resolved_out_distance() + k * l.stride) * s;
      y[b * l.out_line_elements() + k] = {double(buf[p]), s == 2 ? double(buf[p + 1]) : 0.0};
    }
  return y;
}

/// Scalars of `buf` outside the layout's output positions that differ from `fill`: a plan must
/// write its output lines and nothing else.
template <class T>
std::int64_t changed_output_gaps(const FftLayout& l, const std::vector<T>& buf, T fill) {
  const int s = scalars(output_is_real(l));
  std::vector<bool> inside(buf.size(), false);
  for (std::int64_t b = 0; b < l.batch; ++b)
    for (std::int64_t k = 0; k < l.out_line_elements(); ++k)
      for (int c = 0; c < s; ++c) inside[(b * l.resolved_out_distance() + k * l.stride) * s + c] = true;
  std::int64_t changed = 0;
  for (std::size_t i = 0; i < buf.size(); ++i) changed += !inside[i] && !(buf[i] == fill);
  return changed;
}

/// The exact transform of `x` (contiguous input lines) by the direct sum in long double, with
/// exact twiddles exp(sign 2 pi i (j k mod n) / n): O(n^2) per line, for n up to a few thousand.
/// c2r completes the half spectrum Hermitian-wise, ignoring the imaginary parts of bins 0 and n/2.
inline Lines direct_transform(const FftLayout& l, const Lines& x) {
  using ld = long double;
  const std::int64_t n = l.n;
  const bool inverse = l.kind == FftKind::c2r || (l.kind == FftKind::c2c && l.direction == FftDirection::inverse);
  const ld pi = 3.141592653589793238462643383279502884L;
  std::vector<std::complex<ld>> w(n);
  for (std::int64_t k = 0; k < n; ++k)
    w[k] = std::polar<ld>(1, (inverse ? 2 : -2) * pi * ld(k) / ld(n));
  Lines y(l.batch * l.out_line_elements());
  std::vector<std::complex<ld>> full(n);
  for (std::int64_t b = 0; b < l.batch; ++b) {
    const auto* in = x.data() + b * l.in_line_elements();
    for (std::int64_t j = 0; j < n; ++j) {
      if (l.kind != FftKind::c2r) full[j] = {ld(in[j].real()), ld(in[j].imag())};
      else if (j == 0 || 2 * j == n) full[j] = {ld(in[j].real()), 0};
      else if (2 * j < n) full[j] = {ld(in[j].real()), ld(in[j].imag())};
      else full[j] = {ld(in[n - j].real()), -ld(in[n - j].imag())};
    }
    for (std::int64_t k = 0; k < l.out_line_elements(); ++k) {
      std::complex<ld> sum = 0;
      for (std::int64_t j = 0; j < n; ++j) sum += full[j] * w[(j * k) % n];
      y[b * l.out_line_elements() + k] = l.kind == FftKind::c2r ? std::complex<double>(double(sum.real()), 0.0)
                                                                 : std::complex<double>(sum);
    }
  }
  return y;
}

/// ||got - ref||_2 / ||ref||_2 over all lines (the absolute L2 difference when ref is zero).
inline double relative_l2_error(const Lines& got, const Lines& ref) {
  double diff = 0, norm = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    diff += std::norm(got[i] - ref[i]);
    norm += std::norm(ref[i]);
  }
  return norm > 0 ? std::sqrt(diff / norm) : std::sqrt(diff);
}

/// The flow-graph suites' tolerances on the relative L2 error.
template <class T>
double fft_tolerance() {
  return sizeof(T) == 4 ? 1e-5 : 1e-12;
}

inline const char* kind_name(FftKind k) { return k == FftKind::c2c ? "c2c" : k == FftKind::r2c ? "r2c" : "c2r"; }

/// "c2c inverse n=64 batch=3 stride=2 in_distance=200 out_distance=0", for failure messages.
inline std::string describe(const FftLayout& l) {
  return std::string(kind_name(l.kind)) + (l.direction == FftDirection::forward ? " forward" : " inverse") +
         " n=" + std::to_string(l.n) + " batch=" + std::to_string(l.batch) + " stride=" + std::to_string(l.stride) +
         " in_distance=" + std::to_string(l.in_distance) + " out_distance=" + std::to_string(l.out_distance);
}

}  // namespace gridflow::testing
