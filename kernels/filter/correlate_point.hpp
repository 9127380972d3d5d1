#pragma once
// The math of correlation, once, for the host reference and the direct CUDA variant: the value of
// the extended global array at a point, and one output point of an axis pass or of a full kernel.
// Sums run over the weights in order, starting from the first product (so a single weight of 1
// copies exactly, -0 and NaN included) and adding each further product with one fused
// multiply-add: one rounding per weight on the host and on the device alike, so the CUDA variants
// can equal the reference bit for bit while using the GPU's FMA (the project builds CUDA with
// --fmad=false, which would otherwise cost a multiply and an add per weight).
#include <cmath>

#include "kernels/filter/boundary_mode.hpp"
#include "mesh/field_view.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::filter {

/// a * b + c rounded once.
GRIDFLOW_HOST_DEVICE inline float multiply_add(float a, float b, float c) {
#if defined(__CUDA_ARCH__)
  return __fmaf_rn(a, b, c);
#else
  return std::fma(a, b, c);
#endif
}
GRIDFLOW_HOST_DEVICE inline double multiply_add(double a, double b, double c) {
#if defined(__CUDA_ARCH__)
  return __fma_rn(a, b, c);
#else
  return std::fma(a, b, c);
#endif
}

/// A grid point by global index, trivially copyable for kernels.
template <int Dim>
struct Point {
  long long i[Dim];
};

/// The global array's index range per axis and how it is extended beyond it.
template <int Dim>
struct Extension {
  long long lo[Dim];  ///< global index of the array's first point along each axis
  long long n[Dim];   ///< the array's extent along each axis
  BoundaryMode mode;
};

template <class T, int Dim>
GRIDFLOW_HOST_DEVICE inline T value_at(const mesh::FieldView<const T, Dim>& v, const Point<Dim>& p) {
  if constexpr (Dim == 2) return v(p.i[0], p.i[1]);
  else return v(p.i[0], p.i[1], p.i[2]);
}

/// The extended array at p: the field's value where p is in the global array (owned or ghost
/// point of `v`), else the value at the index the mode maps p to, or cval.
template <class T, int Dim>
GRIDFLOW_HOST_DEVICE inline T extended_value(const mesh::FieldView<const T, Dim>& v, Point<Dim> p, const Extension<Dim>& e,
                                             T cval) {
  for (int d = 0; d < Dim; ++d) {
    const long long m = boundary_index(p.i[d] - e.lo[d], e.n[d], e.mode);
    if (m < 0) return cval;
    p.i[d] = e.lo[d] + m;
  }
  return value_at(v, p);
}

/// out(p) = sum_j w[j] in(p + (j - length/2) e_axis), the extended array read.
template <class T, int Dim>
GRIDFLOW_HOST_DEVICE inline T axis_pass_point(const mesh::FieldView<const T, Dim>& in, Point<Dim> p, int axis, const T* w,
                                              int length, const Extension<Dim>& e, T cval) {
  p.i[axis] -= length / 2;
  T s = w[0] * extended_value(in, p, e, cval);
  for (int j = 1; j < length; ++j) {
    ++p.i[axis];
    s = multiply_add(w[j], extended_value(in, p, e, cval), s);
  }
  return s;
}

/// out(p) = sum_q w[q] in(p + q - shape/2) over the weight box (x fastest), the extended array read.
template <class T, int Dim>
GRIDFLOW_HOST_DEVICE inline T full_point(const mesh::FieldView<const T, Dim>& in, const Point<Dim>& p, const T* w,
                                         const int (&shape)[Dim], const Extension<Dim>& e, T cval) {
  Point<Dim> q = p;
  const int nz = Dim == 3 ? shape[Dim - 1] : 1;
  T s{};
  int t = 0;
  for (int kz = 0; kz < nz; ++kz) {
    if constexpr (Dim == 3) q.i[2] = p.i[2] + kz - shape[2] / 2;
    for (int ky = 0; ky < shape[1]; ++ky) {
      q.i[1] = p.i[1] + ky - shape[1] / 2;
      for (int kx = 0; kx < shape[0]; ++kx, ++t) {
        q.i[0] = p.i[0] + kx - shape[0] / 2;
        const T v = extended_value(in, q, e, cval);
        s = t == 0 ? w[t] * v : multiply_add(w[t], v, s);
      }
    }
  }
  return s;
}

}  // namespace gridflow::kernels::filter
