#pragma once
// Launcher of the device min/max; no CUDA syntax, so plain C++ can call it.
#include "kernels/core/min_max_reducer.hpp"
#include "mesh/box.hpp"
#include "mesh/field_view.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::core {

/// Device min/max of `box` (reduce_cuda on `stream`); blocks until the result is on the host.
template <class T, int Dim>
MinMax<T> min_max_cuda(mesh::FieldView<const T, Dim> field, const mesh::Box<Dim>& box, StreamHandle stream);

}  // namespace gridflow::kernels::core
