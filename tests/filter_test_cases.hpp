#pragma once
// The filters every correlation test runs (built-ins, user weights separable and full, radius 0
// and 5, even lengths) and the host reference run on a whole array, shared by the unit tests
// (host reference against the padded-array formula) and the GPU tests (CUDA against the host).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "filter_reference.hpp"
#include "kernels/filter/correlate.hpp"
#include "kernels/filter/filter_weights.hpp"
#include "mesh/field.hpp"
#include "typed_cases.hpp"

namespace gridflow::testing {

template <int Dim>
std::array<int, Dim> per_axis(std::array<int, 3> v) {
  std::array<int, Dim> r{};
  for (int d = 0; d < Dim; ++d) r[d] = v[d];
  return r;
}

/// One weights case per kind, sized for arrays of at least 12 x 12 (x 11).
template <int Dim>
std::vector<kernels::filter::FilterWeights<Dim>> filter_cases() {
  using namespace kernels::filter;
  std::vector<FilterWeights<Dim>> cases;
  cases.push_back(mean_filter<Dim>(per_axis<Dim>({3, 4, 5})));
  cases.push_back(mean_filter<Dim>(per_axis<Dim>({1, 1, 1})));     // radius 0: a copy
  cases.push_back(mean_filter<Dim>(per_axis<Dim>({11, 11, 11})));  // radius 5
  std::array<double, Dim> sigma{};
  for (int d = 0; d < Dim; ++d) sigma[d] = d == 0 ? 1.0 : d == 1 ? 0.6 : 1.4;
  cases.push_back(gaussian_filter<Dim>(sigma));
  std::array<std::vector<double>, Dim> user;
  for (int d = 0; d < Dim; ++d) user[d] = d == 1 ? identity_weights() : random_weights(d == 0 ? 2 : 5, 10u + d);
  cases.push_back(separable_weights<Dim>(user));  // even length, an identity axis, weights not summing to 1
  std::array<int, Dim> shape = per_axis<Dim>({3, 2, 3});
  int count = 1;
  for (int s : shape) count *= s;
  cases.push_back(full_weights<Dim>(shape, random_weights(count, 20u)));
  shape = per_axis<Dim>({11, 1, 2});
  count = 1;
  for (int s : shape) count *= s;
  cases.push_back(full_weights<Dim>(shape, random_weights(count, 21u)));
  return cases;
}

inline std::vector<kernels::filter::Boundary> boundary_cases() {
  using kernels::filter::BoundaryMode;
  return {{BoundaryMode::reflect, 0.0}, {BoundaryMode::constant, 0.0}, {BoundaryMode::constant, 0.75}, {BoundaryMode::nearest, 0.0},
          {BoundaryMode::mirror, 0.0},  {BoundaryMode::wrap, 0.0}};
}

template <int Dim>
std::string describe(const kernels::filter::FilterWeights<Dim>& w, const kernels::filter::Boundary& b) {
  std::string s = w.name + (w.separable ? " separable " : " full ");
  for (int d = 0; d < Dim; ++d) s += (d ? "x" : "") + std::to_string(w.length(d));
  return s + ", mode " + kernels::filter::to_string(b.mode) + ", cval " + std::to_string(b.cval);
}

template <int Dim>
mesh::Box<Dim> box_of(const std::array<long, 3>& n) {
  mesh::Box<Dim> b;
  for (int d = 0; d < Dim; ++d) {
    b.lo[d] = 0;
    b.hi[d] = n[d] - 1;
  }
  return b;
}

template <int Dim>
std::array<mesh::Index, 3> origin() {
  return {};
}

/// Points of `update` where two fields' values differ in their bits, and the first one (its
/// index and both values) for the failure message.
struct BitDifference {
  std::size_t count = 0;
  std::string first;
};

template <class T, int Dim>
BitDifference bit_difference(const mesh::Field<T, Dim>& got, const mesh::Field<T, Dim>& want, const mesh::Box<Dim>& update) {
  BitDifference out;
  std::ostringstream first;
  const long nz = Dim == 3 ? update.extent(Dim - 1) : 1;
  for (long c = 0; c < nz; ++c)
    for (auto j = update.lo[1]; j <= update.hi[1]; ++j)
      for (auto i = update.lo[0]; i <= update.hi[0]; ++i) {
        T a, e;
        if constexpr (Dim == 2) a = got(i, j), e = want(i, j);
        else a = got(i, j, update.lo[2] + c), e = want(i, j, update.lo[2] + c);
        if (!same_bits(a, e) && out.count++ == 0)
          first << " first at (" << i << ", " << j << (Dim == 3 ? ", " + std::to_string(update.lo[Dim - 1] + c) : std::string())
                << "): got " << a << ", want " << e;
      }
  out.first = first.str();
  return out;
}

/// `d` with every value rounded to T, so a reference in double sees the field's values.
template <class T>
Dense rounded(Dense d) {
  for (double& x : d.v) x = static_cast<double>(static_cast<T>(x));
  return d;
}

/// The padded-array formula (filter_reference.hpp) for a FilterWeights, in double.
template <int Dim>
Dense reference_filter(const Dense& input, const kernels::filter::FilterWeights<Dim>& w, const kernels::filter::Boundary& b) {
  if (!w.separable) {
    std::array<long, 3> shape{1, 1, 1};
    for (int d = 0; d < Dim; ++d) shape[d] = w.shape[d];
    return correlate_full(input, shape, w.full, b.mode, b.cval);
  }
  Dense out = input;
  for (int d = 0; d < Dim; ++d) out = correlate1d(out, d, w.axis[d], b.mode, b.cval);
  return out;
}

/// A bound on the rounding of a filter in T: a few units of T's epsilon per weight, relative to
/// the largest |value| the filter can produce (max |input, cval| times the weights' absolute sums).
template <class T, int Dim>
double filter_tolerance(const Dense& input, const kernels::filter::FilterWeights<Dim>& w, const kernels::filter::Boundary& b) {
  double scale = std::fabs(b.cval);
  for (double x : input.v) scale = std::max(scale, std::fabs(x));
  double terms = 0;
  if (w.separable) {
    for (int d = 0; d < Dim; ++d) {
      double s = 0;
      for (double x : w.axis[d]) s += std::fabs(x);
      scale *= std::max(s, 1.0);
      terms += static_cast<double>(w.axis[d].size());
    }
  } else {
    double s = 0;
    for (double x : w.full) s += std::fabs(x);
    scale *= std::max(s, 1.0);
    terms = static_cast<double>(w.full.size());
  }
  return 2.0 * (terms + 2.0) * std::numeric_limits<T>::epsilon() * scale;
}

inline double max_abs_difference(const Dense& a, const Dense& b) {
  double m = 0;
  for (std::size_t q = 0; q < a.v.size(); ++q) m = std::max(m, std::fabs(a.v[q] - b.v[q]));
  return m;
}

}  // namespace gridflow::testing
