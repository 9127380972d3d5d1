#pragma once
// The 3D Poisson stencil family (7-point): Jacobi sweeps, with the residual norm optionally fused
// into the sweep, and the residual norm alone. Host oracle (Kokkos host space) and CUDA variants.
#include "kernels/stencil/jacobi_params.hpp"
#include "kernels/stencil/poisson_point.hpp"
#include "mesh/box.hpp"
#include "mesh/field.hpp"

namespace gridflow::kernels::stencil {

/// out = jacobi_point(in, f) on `update` (update grown by one inside in's ghosted box; all three
/// fields of one layout and memory space). Host: blocks. Device: asynchronous on `stream`.
template <class T>
void jacobi_sweep(const mesh::Field<T, 3>& in, mesh::Field<T, 3>& out, const mesh::Field<T, 3>& f,
                  const mesh::Box<3>& update, const PoissonCoefficients<T>& k, const JacobiCudaParams& params,
                  StreamHandle stream);

/// `sweeps` sweeps (1..) from `in` into `out`, in one pass over memory on the device (temporal
/// blocking; params.fits_sweeps must hold, and the count must be one a launch takes:
/// jacobi_fused_sweeps_at_most), as sweeps single sweeps on the host. Sweep s = 0..sweeps-1
/// updates update.grow(sweeps - 1 - s) intersected with `active` (the points that sweeps may ever
/// write, e.g. the grid's interior; `update` lies inside it), every other point keeping its value:
/// so a deep-halo cycle's sweeps, whose boxes shrink by one per sweep, or every sweep on one box.
/// `out` receives the last sweep on `update`, with the bits of the same single sweeps; its other
/// points are left as they are. Host: blocks. Device: asynchronous on `stream`.
template <class T>
void jacobi_sweeps(const mesh::Field<T, 3>& in, mesh::Field<T, 3>& out, const mesh::Field<T, 3>& f, int sweeps,
                   const mesh::Box<3>& update, const mesh::Box<3>& active, const PoissonCoefficients<T>& k,
                   const JacobiCudaParams& params, StreamHandle stream);

/// The box sweep s of jacobi_sweeps updates.
inline mesh::Box<3> jacobi_sweep_box(int sweeps, int s, const mesh::Box<3>& update, const mesh::Box<3>& active) {
  return update.grow(sweeps - 1 - s).intersect(active);
}

/// The same sweep, also returning sum over `norm_box` (a sub-box of `update`) of (f - A in)^2,
/// the squared residual of the input, accumulated in double. Blocks until the sum is on the host.
template <class T>
double jacobi_sweep_with_residual(const mesh::Field<T, 3>& in, mesh::Field<T, 3>& out, const mesh::Field<T, 3>& f,
                                  const mesh::Box<3>& update, const mesh::Box<3>& norm_box,
                                  const PoissonCoefficients<T>& k, const JacobiCudaParams& params,
                                  StreamHandle stream);

/// Sum over `box` of (f - A u)^2 in double (this rank only). Blocks.
template <class T>
double residual_norm_squared(const mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, const mesh::Box<3>& box,
                             const PoissonCoefficients<T>& k, StreamHandle stream);

/// The coefficients for a grid's spacings (computed in double, rounded once to T).
template <class T>
PoissonCoefficients<T> poisson_coefficients(double dx, double dy, double dz) {
  const double ix2 = 1 / (dx * dx), iy2 = 1 / (dy * dy), iz2 = 1 / (dz * dz);
  return {static_cast<T>(ix2), static_cast<T>(iy2), static_cast<T>(iz2), static_cast<T>(1 / (2 * (ix2 + iy2 + iz2)))};
}

}  // namespace gridflow::kernels::stencil
