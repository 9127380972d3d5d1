#pragma once
// The right-hand side of the interior system of A u = f: b = f - A u_bdry at interior points, the
// boundary values moved to the right (direct solvers take it; iterative ones never need it).
// Host oracle and CUDA.
#include <array>

#include "kernels/stencil/poisson_point.hpp"
#include "mesh/box.hpp"
#include "mesh/field.hpp"

namespace gridflow::kernels::stencil {

/// b = dirichlet_lift_point at every point of `box`, a box of interior points
/// (1..n-1 along every axis, `n` the grid's interval counts). u's boundary points next to the box
/// must hold the Dirichlet values (its interior values are not read, so b may be u itself). u and f
/// share one layout; b may have another (its ghosted box contains `box`); all three share one memory space.
/// Host: blocks. Device: asynchronous on `stream`.
template <class T>
void dirichlet_lift(const mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, const mesh::Box<3>& box,
                    const std::array<mesh::Index, 3>& n, const PoissonCoefficients<T>& k, mesh::Field<T, 3>& b,
                    StreamHandle stream);

/// Readies the lift for fields in `space` ahead of its first call (on the device: loads its kernel,
/// so that the first lift inside a timed solve does not pay for it); nothing on the host.
template <class T>
void prepare_dirichlet_lift(mesh::MemorySpace space);

}  // namespace gridflow::kernels::stencil
