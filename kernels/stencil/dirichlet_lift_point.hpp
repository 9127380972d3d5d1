#pragma once
// The Dirichlet lift: the interior system's right-hand side b = f - A u_bdry, where u_bdry is u with
// every interior point zeroed, so only the neighbours that lie on the boundary enter.
#include <cstdint>

#include "kernels/stencil/poisson_point.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::stencil {

/// A neighbour's value in u_bdry: u's value at (i, j, z) when `index`, its index along the axis
/// stepped, is 0 or n, else 0. Interior points are never read, so the lift may write into u itself.
template <class T, class View>
GRIDFLOW_HOST_DEVICE inline T boundary_part(const View& u, std::int64_t i, std::int64_t j, std::int64_t z,
                                            std::int64_t index, std::int64_t n) {
  return index == 0 || index == n ? u(i, j, z) : T(0);
}

/// b = f - laplacian_point(0, w, e, s, n, b, t) with the neighbours already reduced to boundary_part.
template <class T>
GRIDFLOW_HOST_DEVICE inline T dirichlet_lift_point(T f, T w, T e, T s, T n, T b, T t, const PoissonCoefficients<T>& k) {
  return f - laplacian_point(T(0), w, e, s, n, b, t, k);
}

}  // namespace gridflow::kernels::stencil
