#pragma once
// Launcher of the eigenvalue division on the device; no CUDA syntax, so plain C++ can call it.
#include "kernels/fft/eigen_divide_point.hpp"
#include "mesh/box.hpp"
#include "mesh/field_view.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::fft {

/// field = eigen_divide_point(field, tables) on `box`; asynchronous on `stream`.
template <class T>
void launch_eigen_divide_cuda(mesh::FieldView<T, 3> field, const mesh::Box<3>& box, const EigenTables<T>& tables, T scale,
                              StreamHandle stream);

}  // namespace gridflow::kernels::fft
