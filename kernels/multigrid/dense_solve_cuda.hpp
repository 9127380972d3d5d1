#pragma once
// Launcher of the CUDA dense coarse solve; asynchronous on `stream`.
#include "mesh/box.hpp"
#include "mesh/field_view.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::multigrid {

template <class T>
void apply_dense_inverse_cuda(const T* inverse, mesh::FieldView<const T, 3> f, mesh::FieldView<T, 3> u, const mesh::Box<3>& box,
                              StreamHandle stream);

}  // namespace gridflow::kernels::multigrid
