#pragma once
// An independent reference for the filter tests: scipy.ndimage's correlate1d / correlate written
// as numpy would, on a dense array: pad each line by the filter's reach the way numpy.pad's
// modes do (built from slices and reversals, not from gridflow's index mapping), then sum the
// weights times the padded values. Also the copies between dense arrays and gridflow fields.
#include <array>
#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

#include "kernels/filter/boundary_mode.hpp"
#include "mesh/box.hpp"
#include "mesh/field.hpp"

namespace gridflow::testing {

/// A dense array of extents n (n[2] = 1 for 2D), x fastest.
struct Dense {
  std::array<long, 3> n{1, 1, 1};
  std::vector<double> v;
  explicit Dense(std::array<long, 3> extents) : n(extents), v(static_cast<std::size_t>(extents[0] * extents[1] * extents[2])) {}
  double& at(long i, long j, long k) { return v[static_cast<std::size_t>(i + n[0] * (j + n[1] * k))]; }
  double at(long i, long j, long k) const { return v[static_cast<std::size_t>(i + n[0] * (j + n[1] * k))]; }
};

/// Uniform values in [lo, hi), reproducible from `seed`.
inline Dense random_dense(std::array<long, 3> n, unsigned seed, double lo = -1.0, double hi = 1.0) {
  Dense d(n);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(lo, hi);
  for (double& x : d.v) x = u(gen);
  return d;
}

inline std::vector<double> random_weights(int count, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> w(static_cast<std::size_t>(count));
  for (double& x : w) x = u(gen);
  return w;
}

/// numpy.pad(line, (left, right), mode) with scipy's mode names (scipy "reflect" is numpy
/// "symmetric", scipy "mirror" is numpy "reflect", "nearest" is "edge").
inline std::vector<double> pad_line(const std::vector<double>& a, long left, long right, kernels::filter::BoundaryMode mode,
                                    double cval) {
  using kernels::filter::BoundaryMode;
  const long n = static_cast<long>(a.size());
  std::vector<double> lpad, rpad;
  switch (mode) {
    case BoundaryMode::constant:
      lpad.assign(left, cval);
      rpad.assign(right, cval);
      break;
    case BoundaryMode::nearest:
      lpad.assign(left, a.front());
      rpad.assign(right, a.back());
      break;
    case BoundaryMode::reflect:  // a[left-1] .. a[0] | a | a[n-1] .. a[n-right]
      if (left > n || right > n) throw std::logic_error("pad_line: reflect reach beyond one period");
      lpad.assign(a.rend() - left, a.rend());
      rpad.assign(a.rbegin(), a.rbegin() + right);
      break;
    case BoundaryMode::mirror:  // a[left] .. a[1] | a | a[n-2] .. a[n-1-right]
      if (n == 1) {
        lpad.assign(left, a[0]);
        rpad.assign(right, a[0]);
        break;
      }
      if (left > n - 1 || right > n - 1) throw std::logic_error("pad_line: mirror reach beyond one period");
      lpad.assign(a.rend() - 1 - left, a.rend() - 1);
      rpad.assign(a.rbegin() + 1, a.rbegin() + 1 + right);
      break;
    case BoundaryMode::wrap:  // a[n-left] .. a[n-1] | a | a[0] .. a[right-1]
      if (left > n || right > n) throw std::logic_error("pad_line: wrap reach beyond one period");
      lpad.assign(a.end() - left, a.end());
      rpad.assign(a.begin(), a.begin() + right);
      break;
  }
  std::vector<double> p = lpad;
  p.insert(p.end(), a.begin(), a.end());
  p.insert(p.end(), rpad.begin(), rpad.end());
  return p;
}

/// `d` padded along `axis` by left and right points.
inline Dense pad_axis(const Dense& d, int axis, long left, long right, kernels::filter::BoundaryMode mode, double cval) {
  auto n = d.n;
  n[axis] += left + right;
  Dense out(n);
  std::array<long, 3> idx{};
  for (idx[2] = 0; idx[2] < (axis == 2 ? 1 : d.n[2]); ++idx[2])
    for (idx[1] = 0; idx[1] < (axis == 1 ? 1 : d.n[1]); ++idx[1])
      for (idx[0] = 0; idx[0] < (axis == 0 ? 1 : d.n[0]); ++idx[0]) {
        std::vector<double> line(static_cast<std::size_t>(d.n[axis]));
        auto p = idx;
        for (long t = 0; t < d.n[axis]; ++t) {
          p[axis] = t;
          line[static_cast<std::size_t>(t)] = d.at(p[0], p[1], p[2]);
        }
        const auto padded = pad_line(line, left, right, mode, cval);
        for (long t = 0; t < n[axis]; ++t) {
          p[axis] = t;
          out.at(p[0], p[1], p[2]) = padded[static_cast<std::size_t>(t)];
        }
      }
  return out;
}

/// scipy.ndimage.correlate1d(d, w, axis, mode=mode, cval=cval).
inline Dense correlate1d(const Dense& d, int axis, const std::vector<double>& w, kernels::filter::BoundaryMode mode, double cval) {
  const long L = static_cast<long>(w.size());
  const Dense p = pad_axis(d, axis, L / 2, L - 1 - L / 2, mode, cval);
  Dense out(d.n);
  for (long k = 0; k < d.n[2]; ++k)
    for (long j = 0; j < d.n[1]; ++j)
      for (long i = 0; i < d.n[0]; ++i) {
        double s = 0;
        for (long t = 0; t < L; ++t) {
          std::array<long, 3> q{i, j, k};
          q[axis] += t;
          s += w[static_cast<std::size_t>(t)] * p.at(q[0], q[1], q[2]);
        }
        out.at(i, j, k) = s;
      }
  return out;
}

/// scipy.ndimage.correlate(d, weights of `shape` (x fastest), mode=mode, cval=cval).
inline Dense correlate_full(const Dense& d, const std::array<long, 3>& shape, const std::vector<double>& w,
                            kernels::filter::BoundaryMode mode, double cval) {
  Dense p = d;
  for (int a = 0; a < 3; ++a) p = pad_axis(p, a, shape[a] / 2, shape[a] - 1 - shape[a] / 2, mode, cval);
  Dense out(d.n);
  for (long k = 0; k < d.n[2]; ++k)
    for (long j = 0; j < d.n[1]; ++j)
      for (long i = 0; i < d.n[0]; ++i) {
        double s = 0;
        std::size_t t = 0;
        for (long c = 0; c < shape[2]; ++c)
          for (long b = 0; b < shape[1]; ++b)
            for (long a = 0; a < shape[0]; ++a) s += w[t++] * p.at(i + a, j + b, k + c);
        out.at(i, j, k) = s;
      }
  return out;
}

/// Writes d into `f` at global index lo + (i, j, k) for every point of d.
template <class T, int Dim>
void put(const Dense& d, mesh::Field<T, Dim>& f, const std::array<mesh::Index, 3>& lo) {
  for (long k = 0; k < d.n[2]; ++k)
    for (long j = 0; j < d.n[1]; ++j)
      for (long i = 0; i < d.n[0]; ++i) {
        if constexpr (Dim == 2) f(lo[0] + i, lo[1] + j) = static_cast<T>(d.at(i, j, k));
        else f(lo[0] + i, lo[1] + j, lo[2] + k) = static_cast<T>(d.at(i, j, k));
      }
}

/// The values of `f` on the box lo .. lo + n - 1 as a dense array.
template <class T, int Dim>
Dense take(const mesh::Field<T, Dim>& f, const std::array<mesh::Index, 3>& lo, std::array<long, 3> n) {
  Dense d(n);
  for (long k = 0; k < n[2]; ++k)
    for (long j = 0; j < n[1]; ++j)
      for (long i = 0; i < n[0]; ++i) {
        if constexpr (Dim == 2) d.at(i, j, k) = static_cast<double>(f(lo[0] + i, lo[1] + j));
        else d.at(i, j, k) = static_cast<double>(f(lo[0] + i, lo[1] + j, lo[2] + k));
      }
  return d;
}

}  // namespace gridflow::testing
