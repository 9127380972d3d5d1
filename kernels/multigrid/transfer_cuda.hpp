#pragma once
// Launchers of the CUDA grid transfers; asynchronous on `stream`.
#include "mesh/box.hpp"
#include "mesh/field_view.hpp"
#include "kernels/multigrid/multigrid_point.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::multigrid {

template <class T>
void restrict_full_weighting_cuda(mesh::FieldView<const T, 3> fine, mesh::FieldView<T, 3> coarse, const mesh::Box<3>& coarse_box,
                                  const Coarsening& c, StreamHandle stream);

template <class T>
void restrict_residual_full_weighting_cuda(mesh::FieldView<const T, 3> u, mesh::FieldView<const T, 3> f, mesh::FieldView<T, 3> coarse,
                                           const mesh::Box<3>& coarse_box, const PoissonCoefficients<T>& k, StreamHandle stream);

template <class T>
void prolong_and_add_cuda(mesh::FieldView<const T, 3> coarse, mesh::FieldView<T, 3> fine, const mesh::Box<3>& fine_box,
                          const Coarsening& c, StreamHandle stream);

}  // namespace gridflow::kernels::multigrid
