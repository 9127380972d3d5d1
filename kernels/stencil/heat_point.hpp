#pragma once
#include "mesh/host_device.hpp"

namespace gridflow::kernels::stencil {

/// Forward-Euler 5-point heat update at one point: c + cx (w - 2c + e) + cy (s - 2c + n),
/// with cx = a dt / dx^2 and cy = a dt / dy^2. The one definition of the math for every variant.
template <class T>
GRIDFLOW_HOST_DEVICE inline T heat_point(T c, T w, T e, T s, T n, T cx, T cy) {
  return c + cx * (w - T(2) * c + e) + cy * (s - T(2) * c + n);
}

}  // namespace gridflow::kernels::stencil
