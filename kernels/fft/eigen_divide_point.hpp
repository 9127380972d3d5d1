#pragma once
// The 7-point Laplacian with homogeneous Dirichlet faces in the sine basis: mode (i, j, k) is an
// eigenvector with eigenvalue lx_i + ly_j + lz_k, where along an axis of N intervals of spacing h
//   l_k = -(4 / h^2) sin^2(pi k / (2N)),  k = 1..N-1,
// so solving A u = b there is a pointwise division.
#include <cmath>
#include <cstdint>

#include "mesh/host_device.hpp"

namespace gridflow::kernels::fft {

/// l_k = -(4 / h^2) sin^2(pi k / (2N)): the eigenvalue of (u_{i-1} - 2 u_i + u_{i+1}) / h^2 for sin(pi i k / N).
inline double dirichlet_second_difference_eigenvalue(std::int64_t k, std::int64_t n, double h) {
  const double s = std::sin(M_PI * static_cast<double>(k) / (2.0 * static_cast<double>(n)));
  return -4.0 * s * s / (h * h);
}

/// Per-axis eigenvalue tables in a field's memory: the value for global index i along axis d is
/// values[d][i - lo[d]].
template <class T>
struct EigenTables {
  const T* values[3] = {};
  std::int64_t lo[3] = {};
  GRIDFLOW_HOST_DEVICE T at(int d, std::int64_t i) const { return values[d][i - lo[d]]; }
};

/// v scale / (lx + ly + lz).
template <class T>
GRIDFLOW_HOST_DEVICE inline T eigen_divide_point(T v, T lx, T ly, T lz, T scale) {
  return v * scale / (lx + ly + lz);
}

}  // namespace gridflow::kernels::fft
