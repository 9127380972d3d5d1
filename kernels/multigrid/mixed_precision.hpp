#pragma once
// The field operations of mixed-precision multigrid (iterative refinement): the residual and the
// solution stay in the working precision T, the cycle computes its correction in a cheaper
// precision C (float for double runs), which halves the bytes every cycle moves. A solve of
// A u = f then alternates
//   r = C(f - A u), ||f - A u||  (residual_and_norm: one pass, the norm folded in)
//   e = cycle(0, r)              (in C)
//   u += T(e)                    (add_correction)
// and still reaches a residual tolerance in T: each step reduces the error by the cycle's factor
// as long as that is far above C's rounding. Host oracle and CUDA variant; the fields may have
// different layouts but share one memory space, and `box` (grown by 1 where u is read) must lie
// in the ghosted box of each. Host fields: block. Device fields: asynchronous on `stream`,
// except residual_and_norm, which blocks until the norm is on the host. Instantiated for
// T = double, C = float (convert: both ways, and float to float).
#include "kernels/multigrid/multigrid_point.hpp"
#include "mesh/box.hpp"
#include "mesh/field.hpp"

namespace gridflow::kernels::multigrid {

/// r = C(f - A u) on `box` (other points of r are left as they are); returns the sum over `box`
/// of (f - A u)^2, in double, of the residual before it is rounded to C (this rank only). The
/// sum's order is fixed (host: rows in order; device: a fixed grid of blocks, a fixed tree in
/// each, the block partials joined on the host in order), so it has the same bits on every run.
template <class T, class C>
double residual_and_norm(const mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, mesh::Field<C, 3>& r, const mesh::Box<3>& box,
                         const PoissonCoefficients<T>& k, StreamHandle stream);

/// residual_and_norm that also keeps the residual in T: exact = f - A u and r = C(exact) on `box`,
/// for a solver that needs both (conjugate gradients with a float preconditioner, at its start):
/// one pass where a residual, a norm and a rounding took three.
template <class T, class C>
double residual_and_norm(const mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, mesh::Field<T, 3>& exact, mesh::Field<C, 3>& r,
                         const mesh::Box<3>& box, const PoissonCoefficients<T>& k, StreamHandle stream);

/// u = u + T(e) on `box`.
template <class C, class T>
void add_correction(const mesh::Field<C, 3>& e, mesh::Field<T, 3>& u, const mesh::Box<3>& box, StreamHandle stream);

/// dst = To(src) on `box` (rounded to nearest where To is narrower).
template <class From, class To>
void convert(const mesh::Field<From, 3>& src, mesh::Field<To, 3>& dst, const mesh::Box<3>& box, StreamHandle stream);

}  // namespace gridflow::kernels::multigrid
