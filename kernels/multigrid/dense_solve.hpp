#pragma once
// The coarsest multigrid level solved directly: the inverse of its 7-point operator (zero
// Dirichlet values) as a dense matrix over the interior points, built once on the host, applied
// per cycle as one matrix-vector product in the fields' memory space. One launch and no
// reduction or host synchronisation, where conjugate gradients would take a dozen iterations of
// dot products on a grid of a few dozen points. Host oracle and CUDA variant; the product sums
// in the same order on both, so they agree bitwise.
#include <vector>

#include "kernels/core/box_points.hpp"
#include "kernels/multigrid/multigrid_point.hpp"
#include "mesh/box.hpp"
#include "mesh/device.hpp"
#include "mesh/field.hpp"

namespace gridflow::kernels::multigrid {

/// Largest interior point count dense_inverse accepts (an N x N matrix: 2 MiB in double).
constexpr mesh::Index dense_solve_max_points = 512;

/// A^{-1} for the 7-point operator with coefficients `k` on the points of `interior` (x fastest,
/// then y, then z), neighbours outside it being zero Dirichlet values; row-major N x N (A is
/// symmetric, so its inverse is too). Gauss-Jordan elimination in double on the host.
std::vector<double> dense_inverse(const mesh::Box<3>& interior, const PoissonCoefficients<double>& k);

/// u = inverse f on the points of `box` (N of them, ordered as in dense_inverse); `inverse` holds
/// N x N values of T in u's memory space. Host fields: blocks. Device fields: asynchronous on `stream`.
template <class T>
void apply_dense_inverse(const T* inverse, const mesh::Field<T, 3>& f, mesh::Field<T, 3>& u, const mesh::Box<3>& box,
                         StreamHandle stream);

/// The product at point (i, j, k) of `box`: sum over its points q (x fastest) of inverse[p N + q] f(q),
/// p the point's own number.
template <class T>
GRIDFLOW_HOST_DEVICE inline T dense_row_at(const T* inverse, const mesh::FieldView<const T, 3>& f, const core::BoxPoints<3>& box,
                                           PointIndex i, PointIndex j, PointIndex k) {
  const T* row = inverse + box.ordinal(i, j, k) * box.size;
  T sum = 0;
  PointIndex q = 0;
  for (PointIndex z = box.lo[2]; z < box.lo[2] + box.n[2]; ++z)
    for (PointIndex y = box.lo[1]; y < box.lo[1] + box.n[1]; ++y)
      for (PointIndex x = box.lo[0]; x < box.lo[0] + box.n[0]; ++x) sum += row[q++] * f(x, y, z);
  return sum;
}

}  // namespace gridflow::kernels::multigrid
