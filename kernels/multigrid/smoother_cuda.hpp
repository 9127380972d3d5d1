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

/// Writes out on `cover` (points outside `box` copied from in; cover within in's ghosted box).
/// `in_allocation`, `f_allocation`: the fields' allocations as boxes of their indices
/// (Field::allocated_box), whose rows must be whole 16-byte vectors, aligned: the kernel copies
/// windows of them as vectors.
template <class T>
void gauss_seidel_sweep_out_of_place_cuda(mesh::FieldView<const T, 3> in, mesh::FieldView<T, 3> out, mesh::FieldView<const T, 3> f,
                                          const mesh::Box<3>& box, const mesh::Box<3>& cover, const mesh::Box<3>& in_allocation,
                                          const mesh::Box<3>& f_allocation, int first, const PoissonCoefficients<T>& k,
                                          StreamHandle stream);

/// The same sweep of a field that is zero (out = 0 on `cover`, its ghosted box, before it): out
/// is written on cover and only f is read.
template <class T>
void gauss_seidel_sweep_out_of_place_from_zero_cuda(mesh::FieldView<T, 3> out, mesh::FieldView<const T, 3> f, const mesh::Box<3>& box,
                                                    const mesh::Box<3>& cover, const mesh::Box<3>& f_allocation, int first,
                                                    const PoissonCoefficients<T>& k, StreamHandle stream);

}  // namespace gridflow::kernels::multigrid
