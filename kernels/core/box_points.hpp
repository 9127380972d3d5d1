#pragma once
// BoxPoints<Dim>: the points of a box numbered x fastest, then y, then z (the order of pack
// buffers and of the reductions), as a plain struct that CUDA kernels take by value. A 2D box is
// a 3D one of one plane.
#include "mesh/box.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::core {

template <int Dim>
struct BoxPoints {
  long long lo[3] = {0, 0, 0};  ///< the box's low corner (global indices)
  long long n[3] = {1, 1, 1};   ///< points per axis
  long long size = 0;           ///< points in all

  static BoxPoints of(const mesh::Box<Dim>& box) {
    BoxPoints p;
    for (int d = 0; d < Dim; ++d) {
      p.lo[d] = box.lo[d];
      p.n[d] = box.extent(d);
    }
    p.size = box.size();
    return p;
  }

  /// The number of point (i, j) (2D) or (i, j, k) (3D).
  GRIDFLOW_HOST_DEVICE long long ordinal(long long i, long long j) const {
    static_assert(Dim == 2, "2D index on a 3D box");
    return (i - lo[0]) + n[0] * (j - lo[1]);
  }
  GRIDFLOW_HOST_DEVICE long long ordinal(long long i, long long j, long long k) const {
    static_assert(Dim == 3, "3D index on a 2D box");
    return (i - lo[0]) + n[0] * ((j - lo[1]) + n[1] * (k - lo[2]));
  }

  /// f(i, j) (2D) or f(i, j, k) (3D) at point number q; returns what f returns. A 64-bit division
  /// is slow on a GPU: this takes one per point in 2D, two in 3D.
  template <class F>
  GRIDFLOW_HOST_DEVICE decltype(auto) at(long long q, const F& f) const {
    const long long row = q / n[0], x = q - row * n[0];
    if constexpr (Dim == 2) return f(lo[0] + x, lo[1] + row);
    else return f(lo[0] + x, lo[1] + row % n[1], lo[2] + row / n[1]);
  }
};

}  // namespace gridflow::kernels::core
