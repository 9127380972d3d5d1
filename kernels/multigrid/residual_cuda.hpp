#pragma once
// Launchers of the CUDA residual and operator kernels; asynchronous on `stream`.
#include "kernels/multigrid/multigrid_point.hpp"
#include "mesh/box.hpp"
#include "mesh/field_view.hpp"

namespace gridflow::kernels::multigrid {

template <class T>
void residual_cuda(mesh::FieldView<const T, 3> u, mesh::FieldView<const T, 3> f, mesh::FieldView<T, 3> r,
                   const mesh::Box<3>& box, const PoissonCoefficients<T>& k, StreamHandle stream);

template <class T>
void apply_laplacian_cuda(mesh::FieldView<const T, 3> u, mesh::FieldView<T, 3> out, const mesh::Box<3>& box,
                          const PoissonCoefficients<T>& k, StreamHandle stream);

}  // namespace gridflow::kernels::multigrid
