#pragma once
// The vector operations at one point, shared by the host oracle and the CUDA kernels.
#include "mesh/host_device.hpp"

namespace gridflow::kernels::multigrid {

/// a * b in double.
template <class A, class B>
GRIDFLOW_HOST_DEVICE inline double product_point(A a, B b) {
  return static_cast<double>(a) * static_cast<double>(b);
}

/// y + alpha x.
template <class T>
GRIDFLOW_HOST_DEVICE inline T axpy_point(T alpha, T x, T y) {
  return y + alpha * x;
}

/// x + beta y.
template <class T>
GRIDFLOW_HOST_DEVICE inline T xpby_point(T x, T beta, T y) {
  return x + beta * y;
}

}  // namespace gridflow::kernels::multigrid
