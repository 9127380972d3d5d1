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

/// Which axes a grid transfer halves: shift[d] = 1 where coarse index I is fine index 2I, 0 where
/// the axis keeps its points (coarse I is fine I: semi-coarsening).
struct Coarsening {
  int shift[3] = {1, 1, 1};
  GRIDFLOW_HOST_DEVICE bool any() const { return (shift[0] | shift[1] | shift[2]) != 0; }
  GRIDFLOW_HOST_DEVICE bool halves(int d) const { return shift[d] != 0; }
  GRIDFLOW_HOST_DEVICE bool halves_all() const { return (shift[0] & shift[1] & shift[2]) != 0; }
};

/// Full weighting's (1/4, 1/2, 1/4) along one axis, as 0.5 mid + 0.25 (low + high), not 0.25 low +
/// 0.5 mid + 0.25 high: a constant then restricts to itself exactly.
template <class T>
GRIDFLOW_HOST_DEVICE inline T full_weighting_3(T low, T mid, T high) {
  return T(0.5) * mid + T(0.25) * (low + high);
}

/// Full weighting of the 27 values at(a, b, c), a, b, c in {-1, 0, 1} the offsets along x, y, z:
/// along x, then y, then z.
template <class T, class At>
GRIDFLOW_HOST_DEVICE inline T full_weighting_of(const At& at) {
  const auto line = [&](int b, int c) { return full_weighting_3<T>(at(-1, b, c), at(0, b, c), at(1, b, c)); };
  const auto plane = [&](int c) { return full_weighting_3<T>(line(-1, c), line(0, c), line(1, c)); };
  return full_weighting_3<T>(plane(-1), plane(0), plane(1));
}

/// Full weighting onto coarse point (I, J, K) from the fine points around its fine point: weights
/// (1/4, 1/2, 1/4) along each halved axis, applied along x, then y, then z. Along a kept axis the
/// neighbour offset is 0 and the same formula gives the point itself exactly (0.5 a + 0.25 (a + a)).
template <class T>
GRIDFLOW_HOST_DEVICE inline T restriction_at(const mesh::FieldView<const T, 3>& fine, PointIndex I, PointIndex J, PointIndex K,
                                             const Coarsening& c = {}) {
  const T* p = &fine(I << c.shift[0], J << c.shift[1], K << c.shift[2]);
  const PointIndex sx = c.shift[0], sy = c.shift[1] * fine.stride[1], sz = c.shift[2] * fine.stride[2];
  return full_weighting_of<T>([&](int a, int b, int d) { return p[a * sx + b * sy + d * sz]; });
}

/// Full weighting of the residual f - A u onto coarse point (I, J, K) of a grid that halves every
/// axis: restriction_at of residual_at's values, each computed where it is used.
template <class T>
GRIDFLOW_HOST_DEVICE inline T residual_restriction_at(const mesh::FieldView<const T, 3>& u, const mesh::FieldView<const T, 3>& f,
                                                      PointIndex I, PointIndex J, PointIndex K, const PoissonCoefficients<T>& k) {
  return full_weighting_of<T>([&](int a, int b, int d) { return residual_at(u, f, 2 * I + a, 2 * J + b, 2 * K + d, k); });
}

/// Trilinear interpolation at fine point (i, j, k) from coarse points floor(i/2)..ceil(i/2) per
/// halved axis (the same point twice where the fine index is even, which is then exact) and from
/// coarse point i itself (twice) along a kept axis.
template <class T>
GRIDFLOW_HOST_DEVICE inline T prolongation_at(const mesh::FieldView<const T, 3>& coarse, PointIndex i, PointIndex j, PointIndex k,
                                              const Coarsening& c = {}) {
  const int si = c.shift[0], sj = c.shift[1], sk = c.shift[2];
  const PointIndex i0 = i >> si, i1 = (i + si) >> si, j0 = j >> sj, j1 = (j + sj) >> sj, k0 = k >> sk, k1 = (k + sk) >> sk;
  const auto x = [&](PointIndex jj, PointIndex kk) { return T(0.5) * (coarse(i0, jj, kk) + coarse(i1, jj, kk)); };
  const auto xy = [&](PointIndex kk) { return T(0.5) * (x(j0, kk) + x(j1, kk)); };
  return T(0.5) * (xy(k0) + xy(k1));
}

}  // namespace gridflow::kernels::multigrid
