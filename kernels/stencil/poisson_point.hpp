#pragma once
// The 7-point discrete Laplacian and its Jacobi update at one point: the math for every variant.
#include "mesh/host_device.hpp"

namespace gridflow::kernels::stencil {

/// Inverse squared spacings and the Jacobi diagonal, computed once per grid (in double, then T).
template <class T>
struct PoissonCoefficients {
  T ix2, iy2, iz2;  ///< 1/dx^2, 1/dy^2, 1/dz^2
  T inv_diag;       ///< 1 / (2/dx^2 + 2/dy^2 + 2/dz^2)
};

/// (A u) at a point: (w - 2c + e)/dx^2 + (s - 2c + n)/dy^2 + (b - 2c + t)/dz^2.
template <class T>
GRIDFLOW_HOST_DEVICE inline T laplacian_point(T c, T w, T e, T s, T n, T b, T t, const PoissonCoefficients<T>& k) {
  return (w - T(2) * c + e) * k.ix2 + (s - T(2) * c + n) * k.iy2 + (b - T(2) * c + t) * k.iz2;
}

/// Jacobi update for A u = f: ((w + e)/dx^2 + (s + n)/dy^2 + (b + t)/dz^2 - f) / (2/dx^2 + 2/dy^2 + 2/dz^2).
template <class T>
GRIDFLOW_HOST_DEVICE inline T jacobi_point(T w, T e, T s, T n, T b, T t, T f, const PoissonCoefficients<T>& k) {
  return ((w + e) * k.ix2 + (s + n) * k.iy2 + (b + t) * k.iz2 - f) * k.inv_diag;
}

}  // namespace gridflow::kernels::stencil
