#pragma once
// Helpers shared by the FFT tests: the direct O(n^2) DFT in long double (the reference), lines
// gathered out of a strided batch, random inputs, and the relative L2 error against a reference.
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

#include "kernels/fft/fft_plan.hpp"

namespace gridflow::testing {

using LongComplex = std::complex<long double>;

inline LongComplex as_long_complex(float x) { return {x, 0}; }
inline LongComplex as_long_complex(double x) { return {x, 0}; }
inline LongComplex as_long_complex(long double x) { return {x, 0}; }
template <class T>
LongComplex as_long_complex(const kernels::fft::Complex<T>& z) {
  return {z.re, z.im};
}
template <class T>
LongComplex as_long_complex(const std::complex<T>& z) {
  return {z.real(), z.imag()};
}

/// ||got - reference||_2 / ||reference||_2 over `count` values, accumulated in long double; the
/// absolute L2 error when the reference is all zero.
template <class Got, class Reference>
double relative_l2_error(const Got* got, const Reference* reference, std::size_t count) {
  long double diff = 0, norm = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const LongComplex r = as_long_complex(reference[i]);
    diff += std::norm(as_long_complex(got[i]) - r);
    norm += std::norm(r);
  }
  return static_cast<double>(norm > 0 ? std::sqrt(diff / norm) : std::sqrt(diff));
}
/// The same over whole vectors; a size mismatch counts as total failure (error 1).
template <class Got, class Reference>
double relative_l2_error(const std::vector<Got>& got, const std::vector<Reference>& reference) {
  if (got.size() != reference.size()) return 1;
  return relative_l2_error(got.data(), reference.data(), got.size());
}

/// X_k = sum_j x_j exp(sign 2 pi i j k / n), sign -1 forward, +1 inverse, in long double with
/// the angle reduced mod n so that large n keeps its accuracy.
inline std::vector<LongComplex> direct_dft(const std::vector<LongComplex>& x, int sign) {
  const auto n = static_cast<std::int64_t>(x.size());
  const long double two_pi = 2 * 3.141592653589793238462643383279502884L;
  std::vector<LongComplex> y(x.size());
  for (std::int64_t k = 0; k < n; ++k) {
    LongComplex sum = 0;
    for (std::int64_t j = 0; j < n; ++j) {
      const long double angle = sign * two_pi * static_cast<long double>((j * k) % n) / n;
      sum += x[j] * LongComplex(std::cos(angle), std::sin(angle));
    }
    y[k] = sum;
  }
  return y;
}

/// The direct transform `layout` describes, of one line given as `count` values: c2c forward /
/// inverse, r2c (n real values to n/2 + 1), c2r (n/2 + 1 values to n real ones, the imaginary
/// parts of bins 0 and n/2 ignored, the rest of the spectrum Hermitian).
inline std::vector<LongComplex> direct_transform(const kernels::fft::FftLayout& layout,
                                                 const std::vector<LongComplex>& line) {
  using kernels::fft::FftDirection;
  using kernels::fft::FftKind;
  const auto n = static_cast<std::size_t>(layout.n);
  if (layout.kind == FftKind::c2c) return direct_dft(line, layout.direction == FftDirection::forward ? -1 : 1);
  if (layout.kind == FftKind::r2c) {
    std::vector<LongComplex> real(line.size());
    for (std::size_t j = 0; j < line.size(); ++j) real[j] = line[j].real();
    auto spectrum = direct_dft(real, -1);
    spectrum.resize(n / 2 + 1);
    return spectrum;
  }
  std::vector<LongComplex> full(n);
  for (std::size_t k = 0; k <= n / 2; ++k) full[k] = line[k];
  full[0] = full[0].real();
  if (n % 2 == 0) full[n / 2] = full[n / 2].real();
  for (std::size_t k = n / 2 + 1; k < n; ++k) full[k] = std::conj(line[n - k]);
  auto real = direct_dft(full, 1);
  for (auto& v : real) v = v.real();
  return real;
}

/// Line b of a batch laid out as `layout` says for its input (`input` true) or output.
template <class V>
std::vector<LongComplex> gather_line(const kernels::fft::FftLayout& layout, const std::vector<V>& buffer,
                                     std::int64_t b, bool input) {
  const auto elements = input ? layout.in_line_elements() : layout.out_line_elements();
  const auto distance = input ? layout.resolved_in_distance() : layout.resolved_out_distance();
  std::vector<LongComplex> line(static_cast<std::size_t>(elements));
  for (std::int64_t j = 0; j < elements; ++j) line[j] = as_long_complex(buffer[b * distance + j * layout.stride]);
  return line;
}

/// `count` values uniform in [-1, 1) (both parts for complex ones), reproducible from `seed`.
template <class V>
std::vector<V> random_values(std::size_t count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<V> v(count);
  for (auto& x : v) {
    if constexpr (std::is_arithmetic_v<V>)
      x = static_cast<V>(u(rng));
    else
      x = {static_cast<decltype(x.re)>(u(rng)), static_cast<decltype(x.re)>(u(rng))};
  }
  return v;
}

}  // namespace gridflow::testing
