#pragma once
// Launchers of the CUDA smoothers; no CUDA syntax, so plain C++ can call them. Asynchronous on `stream`.
#include "kernels/multigrid/multigrid_point.hpp"
#include "mesh/box.hpp"
#include "mesh/field_view.hpp"

namespace gridflow::kernels::multigrid {

template <class T>
void weighted_jacobi_sweep_cuda(mesh::FieldView<const T, 3> in, mesh::FieldView<T, 3> out, mesh::FieldView<const T, 3> f,
                                const mesh::Box<3>& box, const PoissonCoefficients<T>& k, T weight, StreamHandle stream);

template <class T>
void red_black_gauss_seidel_sweep_cuda(mesh::FieldView<T, 3> u, mesh::FieldView<const T, 3> f, const mesh::Box<3>& box,
                                       int colour, const PoissonCoefficients<T>& k, StreamHandle stream);

/// Writes all of `allocation` (u's allocation as a box of its indices): zero, but the points of
/// `colour` in `box`, which take their relaxed value from zero neighbours.
template <class T>
void red_black_gauss_seidel_sweep_from_zero_cuda(mesh::FieldView<T, 3> u, mesh::FieldView<const T, 3> f, const mesh::Box<3>& box,
                                                 const mesh::Box<3>& allocation, int colour, const PoissonCoefficients<T>& k,
                                                 StreamHandle stream);

/// Writes out on `cover` (points outside `box` copied from in); `readable` is in's ghosted box.
template <class T>
void gauss_seidel_sweep_out_of_place_cuda(mesh::FieldView<const T, 3> in, mesh::FieldView<T, 3> out, mesh::FieldView<const T, 3> f,
                                          const mesh::Box<3>& box, const mesh::Box<3>& cover, const mesh::Box<3>& readable,
                                          int first, const PoissonCoefficients<T>& k, StreamHandle stream);

}  // namespace gridflow::kernels::multigrid
