#pragma once
#include "mesh/box.hpp"
#include "mesh/field_view.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::pack {

/// Device pack/unpack of `box` between a field view and a contiguous buffer; asynchronous on `stream`.
template <class T, int Dim>
void launch_pack_cuda(mesh::FieldView<const T, Dim> field, const mesh::Box<Dim>& box, T* buffer, StreamHandle stream);
template <class T, int Dim>
void launch_unpack_cuda(const T* buffer, const mesh::Box<Dim>& box, mesh::FieldView<T, Dim> field, StreamHandle stream);

}  // namespace gridflow::kernels::pack
