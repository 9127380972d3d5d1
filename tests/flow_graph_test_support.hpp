#pragma once
// Test support for the flow-graph FFT suites (unit and GPU), on top of fft_test_support.hpp:
// random lines, placing them in and reading them out of a buffer with an FftLayout's stride and
// distances (and checking nothing else was written), and the references (FFTW in double, the
// direct sum for short lines). Lines are held contiguously in
// std::complex<double>: batch x in_line_elements() going in, batch x out_line_elements() coming
// out (real lines have zero imaginary parts).
#include <cmath>
#include <complex>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "fft_test_support.hpp"
#include "kernels/fft/fft_plan.hpp"
#include "kernels/fft/flow_graph_cuda.hpp"
#include "mesh/memory_space.hpp"

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

/// The reference transform of `x` (contiguous input lines): FFTW in double precision on the
/// contiguous layout of the same kind, length and batch.
inline Lines fftw_reference(const FftLayout& l, const Lines& x) {
  FftLayout contiguous = l;
  contiguous.stride = 1;
  contiguous.in_distance = contiguous.out_distance = 0;
  auto in = input_buffer<double>(contiguous, x);
  auto out = output_buffer<double>(contiguous, 0.0);
  kernels::fft::make_fft_plan<double>(contiguous, mesh::MemorySpace::host, nullptr,
                                      {kernels::fft::FftBackend::fftw, ""})
      ->execute(static_cast<const void*>(in.data()), static_cast<void*>(out.data()));
  return output_lines(contiguous, out);
}

/// The same by the direct sum in long double (fft_test_support.hpp), line by line: O(n^2), for
/// short lines, a reference that shares nothing with FFTW.
inline Lines direct_reference(const FftLayout& l, const Lines& x) {
  Lines y;
  for (std::int64_t b = 0; b < l.batch; ++b) {
    std::vector<LongComplex> line(x.begin() + b * l.in_line_elements(), x.begin() + (b + 1) * l.in_line_elements());
    for (const auto& v : direct_transform(l, line)) y.emplace_back(double(v.real()), double(v.imag()));
  }
  return y;
}

/// What an on-chip launch of `shape` computes (flow_graph_cuda.hpp), on the host: each line
/// gathered, transformed by the host_flow_graph backend, twiddled (the four-step twiddle in long
/// double) and scattered. Lines are read whole before they are written, so in == out with equal
/// layouts works as on the device. The oracle of the device plan's composition of passes.
template <class T>
void run_onchip_shape_on_host(const kernels::fft::Complex<T>* in, kernels::fft::Complex<T>* out,
                              const kernels::fft::OnChipShape& s) {
  FftLayout line;
  line.n = s.n;
  line.direction = s.sign < 0 ? FftDirection::forward : FftDirection::inverse;
  auto plan = kernels::fft::make_fft_plan<T>(line, mesh::MemorySpace::host, nullptr,
                                             {kernels::fft::FftBackend::host_flow_graph, ""});
  std::vector<kernels::fft::Complex<T>> x(s.n), y(s.n);
  const long double pi = 3.141592653589793238462643383279502884L;
  for (std::int64_t b = 0; b < s.batch; ++b) {
    const auto where = s.line(b);
    const std::int64_t i = where.inner;
    for (std::int64_t j = 0; j < s.n; ++j) x[j] = in[where.in + j * s.in_stride];
    plan->execute(x.data(), y.data());
    for (std::int64_t k = 0; k < s.n; ++k) {
      auto v = y[k];
      if (s.twiddle_length > 0) {
        const long double angle = s.sign * 2 * pi * static_cast<long double>((i * k) % s.twiddle_length) /
                                  static_cast<long double>(s.twiddle_length);
        const long double c = std::cos(angle), sn = std::sin(angle);
        v = {static_cast<T>(v.re * c - v.im * sn), static_cast<T>(v.re * sn + v.im * c)};
      }
      out[where.out + k * s.out_stride] = v;
    }
  }
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
