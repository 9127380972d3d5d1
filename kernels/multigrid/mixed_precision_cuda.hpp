#pragma once
// Launchers of the CUDA mixed-precision field operations; no CUDA syntax. Asynchronous on
// `stream` except residual_and_norm_cuda, which blocks until the norm is on the host.
#include "kernels/multigrid/multigrid_point.hpp"
#include "mesh/box.hpp"
#include "mesh/field_view.hpp"

namespace gridflow::kernels::multigrid {

/// `exact` with no data: the residual is kept in C only.
template <class T, class C>
double residual_and_norm_cuda(mesh::FieldView<const T, 3> u, mesh::FieldView<const T, 3> f, mesh::FieldView<T, 3> exact,
                              mesh::FieldView<C, 3> r, const mesh::Box<3>& box, const PoissonCoefficients<T>& k, StreamHandle stream);

template <class C, class T>
void add_correction_cuda(mesh::FieldView<const C, 3> e, mesh::FieldView<T, 3> u, const mesh::Box<3>& box, StreamHandle stream);

template <class From, class To>
void convert_cuda(mesh::FieldView<const From, 3> src, mesh::FieldView<To, 3> dst, const mesh::Box<3>& box, StreamHandle stream);

}  // namespace gridflow::kernels::multigrid
