#pragma once
// Launcher of the Dirichlet lift on the device; no CUDA syntax, so plain C++ can call it.
#include <array>

#include "kernels/stencil/poisson_point.hpp"
#include "mesh/box.hpp"
#include "mesh/field_view.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::stencil {

/// b = f - A u_bdry on `box`; asynchronous on `stream`.
template <class T>
void launch_dirichlet_lift_cuda(mesh::FieldView<const T, 3> u, mesh::FieldView<const T, 3> f, const mesh::Box<3>& box,
                                const std::array<mesh::Index, 3>& n, const PoissonCoefficients<T>& k,
                                mesh::FieldView<T, 3> b, StreamHandle stream);

/// Loads the lift's kernel now: CUDA loads a kernel at its first launch by default, which would
/// otherwise land inside the first timed solve.
template <class T>
void prepare_dirichlet_lift_cuda();

}  // namespace gridflow::kernels::stencil
