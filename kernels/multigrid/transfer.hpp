#pragma once
// Grid transfers between a vertex-centred fine grid and its coarse grid, which halves the axes a
// Coarsening names (n even there, n/2 coarse intervals, coarse point I is fine point 2I) and keeps
// the others (coarse point I is fine point I): full-weighting restriction and trilinear
// prolongation-and-correct, each along the halved axes only. Host oracle and CUDA variant, sharing multigrid_point.hpp.
// Fine and coarse fields share one memory space. Host fields: blocks. Device fields:
// asynchronous on `stream`.
#include "kernels/multigrid/multigrid_point.hpp"
#include "mesh/box.hpp"
#include "mesh/field.hpp"

namespace gridflow::kernels::multigrid {

/// The fine points that restriction onto `coarse_box` reads: 2I-1 .. 2I+1 per halved axis, I on a kept one.
inline mesh::Box<3> restriction_footprint(const mesh::Box<3>& coarse_box, const Coarsening& c = {}) {
  mesh::Box<3> b;
  for (int d = 0; d < 3; ++d) {
    b.lo[d] = coarse_box.lo[d] * (1 + c.shift[d]) - c.shift[d];
    b.hi[d] = coarse_box.hi[d] * (1 + c.shift[d]) + c.shift[d];
  }
  return b;
}

/// The coarse points whose fine point lies in `fine_box`: ceil(lo/2) .. floor(hi/2) per halved
/// axis (empty where the box holds no even index), lo .. hi per kept axis (fine_box at
/// non-negative indices). Over a partition of the fine points these boxes partition the coarse points.
inline mesh::Box<3> coarse_points_under(const mesh::Box<3>& fine_box, const Coarsening& c = {}) {
  mesh::Box<3> b;
  for (int d = 0; d < 3; ++d) {
    b.lo[d] = (fine_box.lo[d] + c.shift[d]) >> c.shift[d];
    b.hi[d] = fine_box.hi[d] >> c.shift[d];
  }
  return b;
}

/// The coarse points that interpolation onto `fine_box` reads: floor(i/2) .. ceil(i/2) per halved
/// axis, i per kept axis (fine_box at non-negative indices).
inline mesh::Box<3> prolongation_footprint(const mesh::Box<3>& fine_box, const Coarsening& c = {}) {
  mesh::Box<3> b;
  for (int d = 0; d < 3; ++d) {
    b.lo[d] = fine_box.lo[d] >> c.shift[d];
    b.hi[d] = (fine_box.hi[d] + c.shift[d]) >> c.shift[d];
  }
  return b;
}

/// coarse = full weighting of `fine` on `coarse_box` (its restriction_footprint must lie in
/// fine's ghosted box); other coarse points are left as they are.
template <class T>
void restrict_full_weighting(const mesh::Field<T, 3>& fine, mesh::Field<T, 3>& coarse, const mesh::Box<3>& coarse_box,
                             StreamHandle stream, const Coarsening& c = {});

/// coarse = full weighting of the residual f - A u on `coarse_box` of a coarse grid that halves
/// every axis, each residual computed where the weighting needs it (bitwise restrict_full_weighting
/// of stencil residuals, without the fine residual field written and read back): its
/// restriction_footprint must lie in f's ghosted box and, grown by 1, in u's.
template <class T>
void restrict_residual_full_weighting(const mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, mesh::Field<T, 3>& coarse,
                                      const mesh::Box<3>& coarse_box, const PoissonCoefficients<T>& k, StreamHandle stream);

/// fine += trilinear interpolation of `coarse` on `fine_box` (its prolongation_footprint must lie
/// in coarse's ghosted box); other fine points are left as they are.
template <class T>
void prolong_and_add(const mesh::Field<T, 3>& coarse, mesh::Field<T, 3>& fine, const mesh::Box<3>& fine_box,
                     StreamHandle stream, const Coarsening& c = {});

}  // namespace gridflow::kernels::multigrid
