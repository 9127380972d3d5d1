#pragma once
// The Dirichlet lift: the interior system's right-hand side b = f - A u_bdry, where u_bdry is u with
// every interior point zeroed, so only the neighbours that lie on the boundary enter.
#include <cstdint>

#include "kernels/stencil/poisson_point.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::stencil {

/// A neighbour's value in u_bdry: itself when its index along the axis is 0 or n, else 0.
template <class T>
GRIDFLOW_HOST_DEVICE inline T boundary_part(T value, std::int64_t index, std::int64_t n) {
  return index == 0 || index == n ? value : T(0);
}

/// b = f - laplacian_point(0, w, e, s, n, b, t) with the neighbours already reduced to boundary_part.
template <class T>
GRIDFLOW_HOST_DEVICE inline T dirichlet_lift_point(T f, T w, T e, T s, T n, T b, T t, const PoissonCoefficients<T>& k) {
  return f - laplacian_point(T(0), w, e, s, n, b, t, k);
}

}  // namespace gridflow::kernels::stencil
