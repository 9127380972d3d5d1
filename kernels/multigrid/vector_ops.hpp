#pragma once
// Point-wise vector operations on the points of a box, for conjugate gradients: dot products,
// axpy-style updates, copies. Host oracle and CUDA variant. The fields may have different
// layouts (each is indexed by global index) but share one memory space, and `box` must lie in
// the ghosted box of each. Where two types are named, a field of the narrower one (float in a
// double solve: a mixed-precision preconditioner's z) is read as if widened first, so the results
// have the bits of a conversion pass followed by the one-type operation; instantiated for one type
// and for (double, float). Host fields: every call blocks. Device fields: asynchronous on
// `stream`, except dot(), which blocks until its result is on the host.
#include <array>

#include "kernels/multigrid/multigrid_point.hpp"
#include "mesh/box.hpp"
#include "mesh/field.hpp"

namespace gridflow::kernels::multigrid {

/// Sum over `box` of a * b, each product and the sum in double (this rank only). Blocks.
template <class A, class B>
double dot(const mesh::Field<A, 3>& a, const mesh::Field<B, 3>& b, const mesh::Box<3>& box, StreamHandle stream);

/// y = y + alpha x on `box`.
template <class T>
void axpy(T alpha, const mesh::Field<T, 3>& x, mesh::Field<T, 3>& y, const mesh::Box<3>& box, StreamHandle stream);

/// y = T(x) + beta y on `box`.
template <class X, class T>
void xpby(const mesh::Field<X, 3>& x, T beta, mesh::Field<T, 3>& y, const mesh::Box<3>& box, StreamHandle stream);

/// dst = src on `box`.
template <class T>
void copy(const mesh::Field<T, 3>& src, mesh::Field<T, 3>& dst, const mesh::Box<3>& box, StreamHandle stream);

// Fused steps of conjugate gradients: each is one pass over its fields where the separate
// operations took two or three, and returns its sums (this rank only; blocks). The fields equal,
// bitwise, what the separate operations write; the sums may differ from dot()'s in the last
// bits (another summation order, fixed: the same bits every run).

/// q = A p on `box` (apply_laplacian); returns the sum over `box` of p q (dot(p, q)).
template <class T>
double laplacian_and_dot(const mesh::Field<T, 3>& p, mesh::Field<T, 3>& q, const mesh::Box<3>& box,
                         const PoissonCoefficients<T>& k, StreamHandle stream);

/// u = u + alpha p and r = r - alpha q on `box` (two axpy); returns the sum over `box` of r r (the new r).
template <class T>
double cg_update(T alpha, const mesh::Field<T, 3>& p, const mesh::Field<T, 3>& q, mesh::Field<T, 3>& u, mesh::Field<T, 3>& r,
                 const mesh::Box<3>& box, StreamHandle stream);

/// cg_update that also writes the new r rounded to C into `rounded` (convert(r, rounded)), for a
/// preconditioner that works in C: the pass that rounded r on its own is saved. C = float.
template <class T, class C>
double cg_update(T alpha, const mesh::Field<T, 3>& p, const mesh::Field<T, 3>& q, mesh::Field<T, 3>& u, mesh::Field<T, 3>& r,
                 mesh::Field<C, 3>& rounded, const mesh::Box<3>& box, StreamHandle stream);

/// {dot(r, z), dot(z, q)} over `box` in one pass.
template <class T, class Z>
std::array<double, 2> dot2(const mesh::Field<T, 3>& r, const mesh::Field<Z, 3>& z, const mesh::Field<T, 3>& q,
                           const mesh::Box<3>& box, StreamHandle stream);

/// Every allocated value of `field` (ghosts and padding included) = 0.
template <class T>
void fill_zero(mesh::Field<T, 3>& field, StreamHandle stream);

}  // namespace gridflow::kernels::multigrid
