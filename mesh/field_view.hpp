#pragma once
// FieldView<T, Dim>: a non-owning, trivially copyable window on a field's values, usable on the
// host and inside CUDA kernels (no Kokkos, no std containers). Indices are global grid indices.
#include <cstdint>

#include "mesh/host_device.hpp"

namespace gridflow::mesh {

template <class T, int Dim>
struct FieldView {
  T* data = nullptr;             ///< the value at global index `lo` (the ghosted box's low corner)
  std::int64_t lo[Dim] = {};     ///< global index of data[0]
  std::int64_t stride[Dim] = {}; ///< elements between neighbours along each axis; stride[0] == 1

  GRIDFLOW_HOST_DEVICE std::int64_t offset(std::int64_t i, std::int64_t j) const {
    static_assert(Dim == 2, "2D index on a 3D view");
    return (i - lo[0]) + (j - lo[1]) * stride[1];
  }
  GRIDFLOW_HOST_DEVICE std::int64_t offset(std::int64_t i, std::int64_t j, std::int64_t k) const {
    static_assert(Dim == 3, "3D index on a 2D view");
    return (i - lo[0]) + (j - lo[1]) * stride[1] + (k - lo[2]) * stride[2];
  }
  GRIDFLOW_HOST_DEVICE T& operator()(std::int64_t i, std::int64_t j) const { return data[offset(i, j)]; }
  GRIDFLOW_HOST_DEVICE T& operator()(std::int64_t i, std::int64_t j, std::int64_t k) const {
    return data[offset(i, j, k)];
  }
};

}  // namespace gridflow::mesh
