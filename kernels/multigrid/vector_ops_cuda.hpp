#pragma once
// Launchers of the CUDA vector operations; asynchronous on `stream` except dot_cuda (blocks).
#include "mesh/box.hpp"
#include "mesh/field_view.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::multigrid {

template <class T>
double dot_cuda(mesh::FieldView<const T, 3> a, mesh::FieldView<const T, 3> b, const mesh::Box<3>& box, StreamHandle stream);
template <class T>
void axpy_cuda(T alpha, mesh::FieldView<const T, 3> x, mesh::FieldView<T, 3> y, const mesh::Box<3>& box, StreamHandle stream);
template <class T>
void xpby_cuda(mesh::FieldView<const T, 3> x, T beta, mesh::FieldView<T, 3> y, const mesh::Box<3>& box, StreamHandle stream);
template <class T>
void copy_cuda(mesh::FieldView<const T, 3> src, mesh::FieldView<T, 3> dst, const mesh::Box<3>& box, StreamHandle stream);

}  // namespace gridflow::kernels::multigrid
