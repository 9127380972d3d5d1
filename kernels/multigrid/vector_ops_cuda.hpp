#pragma once
// Launchers of the CUDA vector operations; asynchronous on `stream` except dot_cuda (blocks).
#include <array>

#include "kernels/multigrid/multigrid_point.hpp"
#include "mesh/box.hpp"
#include "mesh/field_view.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::multigrid {

template <class A, class B>
double dot_cuda(mesh::FieldView<const A, 3> a, mesh::FieldView<const B, 3> b, const mesh::Box<3>& box, StreamHandle stream);
template <class T>
void axpy_cuda(T alpha, mesh::FieldView<const T, 3> x, mesh::FieldView<T, 3> y, const mesh::Box<3>& box, StreamHandle stream);
template <class X, class T>
void xpby_cuda(mesh::FieldView<const X, 3> x, T beta, mesh::FieldView<T, 3> y, const mesh::Box<3>& box, StreamHandle stream);
template <class T>
void copy_cuda(mesh::FieldView<const T, 3> src, mesh::FieldView<T, 3> dst, const mesh::Box<3>& box, StreamHandle stream);

template <class T>
double laplacian_and_dot_cuda(mesh::FieldView<const T, 3> p, mesh::FieldView<T, 3> q, const mesh::Box<3>& box,
                              const PoissonCoefficients<T>& k, StreamHandle stream);
/// `rounded` with no data: r is not rounded.
template <class T, class C>
double cg_update_cuda(T alpha, mesh::FieldView<const T, 3> p, mesh::FieldView<const T, 3> q, mesh::FieldView<T, 3> u,
                      mesh::FieldView<T, 3> r, mesh::FieldView<C, 3> rounded, const mesh::Box<3>& box, StreamHandle stream);
template <class T, class Z>
std::array<double, 2> dot2_cuda(mesh::FieldView<const T, 3> r, mesh::FieldView<const Z, 3> z, mesh::FieldView<const T, 3> q,
                                const mesh::Box<3>& box, StreamHandle stream);

}  // namespace gridflow::kernels::multigrid
