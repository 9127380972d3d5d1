#pragma once
// The multigrid math at one point, written once for the host oracles and the CUDA kernels.
// Indices are global grid indices; each view is indexed by them, so the fields a formula reads
// and writes may have different layouts (ghost widths, boxes).
#include <cstdint>

#include "kernels/stencil/poisson_point.hpp"
#include "mesh/field_view.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::multigrid {

using stencil::PoissonCoefficients;
using PointIndex = std::int64_t;

/// A read-only view of the same values (for kernels that update a field in place).
template <class T>
GRIDFLOW_HOST_DEVICE inline mesh::FieldView<const T, 3> read_only(const mesh::FieldView<T, 3>& v) {
  mesh::FieldView<const T, 3> r;
  r.data = v.data;
  for (int d = 0; d < 3; ++d) {
    r.lo[d] = v.lo[d];
    r.stride[d] = v.stride[d];
  }
  return r;
}

/// (A u)(i, j, k): the 7-point Laplacian (stencil::laplacian_point).
template <class T>
GRIDFLOW_HOST_DEVICE inline T laplacian_at(const mesh::FieldView<const T, 3>& u, PointIndex i, PointIndex j, PointIndex k,
                                           const PoissonCoefficients<T>& c) {
  const T* p = &u(i, j, k);
  const auto sy = u.stride[1], sz = u.stride[2];
  return stencil::laplacian_point(p[0], p[-1], p[1], p[-sy], p[sy], p[-sz], p[sz], c);
}

/// f - A u at (i, j, k).
template <class T>
GRIDFLOW_HOST_DEVICE inline T residual_at(const mesh::FieldView<const T, 3>& u, const mesh::FieldView<const T, 3>& f,
                                          PointIndex i, PointIndex j, PointIndex k, const PoissonCoefficients<T>& c) {
  return f(i, j, k) - laplacian_at(u, i, j, k, c);
}

/// The value that satisfies A u = f at (i, j, k) given the neighbours (stencil::jacobi_point): the
/// Gauss-Seidel update, and the unweighted Jacobi update.
template <class T>
GRIDFLOW_HOST_DEVICE inline T relaxed_at(const mesh::FieldView<const T, 3>& u, const mesh::FieldView<const T, 3>& f,
                                         PointIndex i, PointIndex j, PointIndex k, const PoissonCoefficients<T>& c) {
  const T* p = &u(i, j, k);
  const auto sy = u.stride[1], sz = u.stride[2];
  return stencil::jacobi_point(p[-1], p[1], p[-sy], p[sy], p[-sz], p[sz], f(i, j, k), c);
}

/// Weighted Jacobi: u + weight (relaxed - u).
template <class T>
GRIDFLOW_HOST_DEVICE inline T weighted_jacobi_at(const mesh::FieldView<const T, 3>& u, const mesh::FieldView<const T, 3>& f,
                                                 PointIndex i, PointIndex j, PointIndex k, const PoissonCoefficients<T>& c,
                                                 T weight) {
  const T centre = u(i, j, k);
  return centre + weight * (relaxed_at(u, f, i, j, k, c) - centre);
}

/// Red-black colour of a point: the parity of i + j + k in global indices (0 red, 1 black), so the
/// colouring, and hence every sweep, is the same for any decomposition.
GRIDFLOW_HOST_DEVICE inline int colour_of(PointIndex i, PointIndex j, PointIndex k) { return static_cast<int>((i + j + k) & 1); }

/// The first x index >= lo of row (j, k) that has `colour`.
GRIDFLOW_HOST_DEVICE inline PointIndex first_of_colour(PointIndex lo, PointIndex j, PointIndex k, int colour) {
  return lo + ((lo + j + k + colour) & 1);
}

/// Full weighting onto coarse point (I, J, K) from the 27 fine points around 2I: weights
/// 1/8 (1/2)^(nonzero offsets), applied as (1/4, 1/2, 1/4) along x, then y, then z.
template <class T>
GRIDFLOW_HOST_DEVICE inline T restriction_at(const mesh::FieldView<const T, 3>& fine, PointIndex I, PointIndex J, PointIndex K) {
  const T* p = &fine(2 * I, 2 * J, 2 * K);
  const auto sy = fine.stride[1], sz = fine.stride[2];
  // 0.5 c + 0.25 (w + e), not 0.25 w + 0.5 c + 0.25 e: a constant then restricts to itself exactly.
  const auto line = [](const T* q) { return T(0.5) * q[0] + T(0.25) * (q[-1] + q[1]); };
  const auto plane = [&](const T* q) { return T(0.5) * line(q) + T(0.25) * (line(q - sy) + line(q + sy)); };
  return T(0.5) * plane(p) + T(0.25) * (plane(p - sz) + plane(p + sz));
}

/// Trilinear interpolation at fine point (i, j, k) from coarse points floor(i/2)..ceil(i/2) per
/// axis (the same point twice along an axis where the fine index is even, which is then exact).
template <class T>
GRIDFLOW_HOST_DEVICE inline T prolongation_at(const mesh::FieldView<const T, 3>& coarse, PointIndex i, PointIndex j, PointIndex k) {
  const PointIndex i0 = i >> 1, i1 = (i + 1) >> 1, j0 = j >> 1, j1 = (j + 1) >> 1, k0 = k >> 1, k1 = (k + 1) >> 1;
  const auto x = [&](PointIndex jj, PointIndex kk) { return T(0.5) * (coarse(i0, jj, kk) + coarse(i1, jj, kk)); };
  const auto xy = [&](PointIndex kk) { return T(0.5) * (x(j0, kk) + x(j1, kk)); };
  return T(0.5) * (xy(k0) + xy(k1));
}

}  // namespace gridflow::kernels::multigrid
