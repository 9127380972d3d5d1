#pragma once
// The Dirichlet lift at one point: the interior system's right-hand side b = f - A u_bdry, where
// u_bdry is u with every interior point zeroed, so only the neighbours that lie on the boundary enter.
#include <cstdint>

#include "kernels/stencil/poisson_point.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::stencil {

/// b at interior point p = (i, j, z) (1..n[d]-1 along each axis d, n the grid's interval counts),
/// where `o` is p's offset in u and f (one layout, element strides `stride`). A neighbour is read
/// from u only where it lies on the boundary (index 0 or n[d]), else it is 0: interior points are
/// never read, so b may be u itself, and a point away from the boundary costs one read of f.
template <class T>
GRIDFLOW_HOST_DEVICE inline T dirichlet_lift_point(const T* u, const T* f, std::int64_t o, const std::int64_t (&stride)[3],
                                                   const std::int64_t (&p)[3], const std::int64_t (&n)[3],
                                                   const PoissonCoefficients<T>& k) {
  T low[3] = {T(0), T(0), T(0)}, high[3] = {T(0), T(0), T(0)};
  for (int d = 0; d < 3; ++d) {
    if (p[d] == 1) low[d] = u[o - stride[d]];
    if (p[d] + 1 == n[d]) high[d] = u[o + stride[d]];
  }
  return f[o] - laplacian_point(T(0), low[0], high[0], low[1], high[1], low[2], high[2], k);
}

}  // namespace gridflow::kernels::stencil
