#pragma once
// How the transform layer stores complex values in mesh::Field<T, Dim>: interleaved along x. The
// complex value at point (i, j[, k]) of a box B sits at x index 2i (real part) and 2i + 1
// (imaginary part) of a real field over interleaved(B). A field's rows start on 128-byte
// boundaries and its pitch is a multiple of 128 bytes, so the values are also an array of
// kernels::fft::Complex<T> with strides half the field's.
//
// Keeping the values in real fields lets every transpose go through halo::BoxRedistribution<T>
// unchanged: an interleaved box never splits a complex value.
#include "mesh/box.hpp"

namespace gridflow::transform {

/// The x-interleaved box holding the complex values of `points` (empty stays empty).
template <int Dim>
mesh::Box<Dim> interleaved(mesh::Box<Dim> points) {
  if (points.empty()) return points;
  points.lo[0] = 2 * points.lo[0];
  points.hi[0] = 2 * points.hi[0] + 1;
  return points;
}

}  // namespace gridflow::transform
