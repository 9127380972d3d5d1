#pragma once
// Launchers of the CUDA Jacobi variants; no CUDA syntax, so plain C++ can call them.
#include "kernels/stencil/jacobi_params.hpp"
#include "kernels/stencil/poisson_point.hpp"
#include "mesh/box.hpp"
#include "mesh/field_view.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::stencil {

/// out = jacobi_point(in, f) on `update`. When `norm_box` is not null, also sums (f - A in)^2 over
/// it in double and stores the sum in *residual_sq (blocking); otherwise asynchronous on `stream`.
template <class T>
void launch_jacobi_cuda(const JacobiCudaParams& params, mesh::FieldView<const T, 3> in, mesh::FieldView<T, 3> out,
                        mesh::FieldView<const T, 3> f, const mesh::Box<3>& update, const mesh::Box<3>* norm_box,
                        const PoissonCoefficients<T>& k, double* residual_sq, StreamHandle stream);

/// `sweeps` (2, 3, 4 or 8) sweeps in one launch, asynchronous on `stream`: sweep s = 0..sweeps-1
/// updates update.grow(sweeps - 1 - s) intersected with `active` (update lies inside it); out
/// receives the last sweep on `update`, its other points are left as they are. Throws Error when
/// `params` cannot take that many sweeps (fits_sweeps) or its kernel cannot launch that block.
template <class T>
void launch_jacobi_fused_cuda(const JacobiCudaParams& params, int sweeps, mesh::FieldView<const T, 3> in,
                              mesh::FieldView<T, 3> out, mesh::FieldView<const T, 3> f, const mesh::Box<3>& update,
                              const mesh::Box<3>& active, const PoissonCoefficients<T>& k, StreamHandle stream);

/// Sum over `box` of (f - A u)^2 in double; blocks.
template <class T>
double residual_norm_squared_cuda(mesh::FieldView<const T, 3> u, mesh::FieldView<const T, 3> f, const mesh::Box<3>& box,
                                  const PoissonCoefficients<T>& k, StreamHandle stream);

}  // namespace gridflow::kernels::stencil
