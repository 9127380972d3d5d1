#pragma once
// Multigrid smoothers for A u = f (7-point): weighted Jacobi and red-black Gauss-Seidel. Host
// oracle (Kokkos host space) and CUDA variant of each, sharing the point functions of
// multigrid_point.hpp. The fields may have different layouts but share one memory space; every
// point of box.grow(1) must lie in the ghosted box of the fields read there. Host fields: the call
// blocks. Device fields: asynchronous on `stream`.
#include "kernels/multigrid/multigrid_point.hpp"
#include "mesh/box.hpp"
#include "mesh/field.hpp"

namespace gridflow::kernels::multigrid {

/// out = in + weight (relaxed(in) - in) on `box`; other points of out are left as they are.
template <class T>
void weighted_jacobi_sweep(const mesh::Field<T, 3>& in, mesh::Field<T, 3>& out, const mesh::Field<T, 3>& f,
                           const mesh::Box<3>& box, const PoissonCoefficients<T>& k, T weight, StreamHandle stream);

/// Gauss-Seidel update, in place, of the points of `box` whose colour_of() is `colour` (0 red,
/// 1 black). They read only points of the other colour, so the order within a colour is free.
template <class T>
void red_black_gauss_seidel_sweep(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, const mesh::Box<3>& box, int colour,
                                  const PoissonCoefficients<T>& k, StreamHandle stream);

/// The first colour sweep of a cycle that starts from zero: u = 0 on its whole allocation (ghosts
/// and padding too), then red_black_gauss_seidel_sweep(u, f, box, colour). The CUDA variant does
/// both in one pass that reads only f (the colour's neighbours are all zero), instead of a fill
/// and a sweep that reads u.
template <class T>
void red_black_gauss_seidel_sweep_from_zero(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, const mesh::Box<3>& box,
                                            int colour, const PoissonCoefficients<T>& k, StreamHandle stream);

/// One whole red-black Gauss-Seidel sweep out of place: out = in on the ghosted boxes both share,
/// then the points of `first` colour in `box` relaxed, then those of the other colour, each
/// reading out. Equal, bitwise, to copying in and running red_black_gauss_seidel_sweep for both
/// colours with no exchange between them, so a caller uses it where out's ghosts need no
/// exchange (a level on one rank). The CUDA variant marches z-planes through shared memory,
/// relaxing the first colour one plane ahead of the second: one pass over in, f and out per
/// sweep instead of two in-place colour sweeps over u and f.
template <class T>
void gauss_seidel_sweep_out_of_place(const mesh::Field<T, 3>& in, mesh::Field<T, 3>& out, const mesh::Field<T, 3>& f,
                                     const mesh::Box<3>& box, int first, const PoissonCoefficients<T>& k, StreamHandle stream);

/// The first sweep of a cycle that starts from zero, out of place: out = 0 on its ghosted box,
/// then both colours of `box` as gauss_seidel_sweep_out_of_place (equal bitwise to fill_zero(out)
/// and red_black_gauss_seidel_sweep of both colours). The CUDA variant reads only f: no fill and
/// no zeros read.
template <class T>
void gauss_seidel_sweep_out_of_place_from_zero(mesh::Field<T, 3>& out, const mesh::Field<T, 3>& f, const mesh::Box<3>& box, int first,
                                               const PoissonCoefficients<T>& k, StreamHandle stream);

}  // namespace gridflow::kernels::multigrid
