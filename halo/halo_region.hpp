#pragma once
// HaloRegion<Dim>: what this rank and one other rank exchange in a halo exchange of width w.
// Pure box arithmetic (no MPI): given how the grid's points are split over a process grid, it
// says which owned points go to which rank and which ghost points come from which rank.
//
// One axis, this rank owning lo..hi, w <= every neighbour's extent:
//
//   offset  -1                  0                   +1
//   recv    [lo-w, lo-1]        [lo, hi]            [hi+1, hi+w]
//   send    [lo, lo+w-1]        [lo, hi]            [hi-w+1, hi]
//
// and the 3^Dim - 1 products of those ranges (faces, edges, corners). A width larger than a
// neighbour's extent reaches past it; the regions then include ranks two or more steps away,
// so the exchange stays exact for any width.
#include <array>
#include <vector>

#include "mesh/box.hpp"

namespace gridflow::halo {

template <int Dim>
struct HaloRegion {
  /// The other rank's process-grid coordinates minus this rank's (each entry usually -1, 0, +1).
  std::array<int, Dim> offset{};
  /// Points this rank owns that the other rank needs (inside owned(), inclusive global indices).
  mesh::Box<Dim> send{};
  /// Ghost points of this rank that the other rank owns (outside owned(), inside the grid).
  mesh::Box<Dim> recv{};
};

/// Every region of a width-`width` exchange for the rank at `coords` of a `dims` process grid
/// over a grid with `points[d]` points per axis, split as mesh::split_range splits them.
/// Regions are non-empty; their recv boxes are disjoint and together cover
/// owned.grow(width) ∩ grid points, minus owned; the send box of a region is the recv box of
/// the mirrored region on the other rank. Ordered by offset, axis 0 fastest. Requires width >= 0.
template <int Dim>
std::vector<HaloRegion<Dim>> halo_regions(const std::array<mesh::Index, Dim>& points, const std::array<int, Dim>& dims,
                                          const std::array<int, Dim>& coords, int width);

/// The owned box of the rank at `coords` (same split as mesh::Decomposition).
template <int Dim>
mesh::Box<Dim> owned_box(const std::array<mesh::Index, Dim>& points, const std::array<int, Dim>& dims,
                         const std::array<int, Dim>& coords);

/// A message tag naming the direction `offset` points in (0 .. 3^Dim - 1): the signs of its
/// entries. Two ranks share at most one region, so a sign pattern identifies the message.
template <int Dim>
int direction_tag(const std::array<int, Dim>& offset);

extern template std::vector<HaloRegion<2>> halo_regions<2>(const std::array<mesh::Index, 2>&, const std::array<int, 2>&,
                                                            const std::array<int, 2>&, int);
extern template std::vector<HaloRegion<3>> halo_regions<3>(const std::array<mesh::Index, 3>&, const std::array<int, 3>&,
                                                            const std::array<int, 3>&, int);
extern template mesh::Box<2> owned_box<2>(const std::array<mesh::Index, 2>&, const std::array<int, 2>&,
                                          const std::array<int, 2>&);
extern template mesh::Box<3> owned_box<3>(const std::array<mesh::Index, 3>&, const std::array<int, 3>&,
                                          const std::array<int, 3>&);
extern template int direction_tag<2>(const std::array<int, 2>&);
extern template int direction_tag<3>(const std::array<int, 3>&);

}  // namespace gridflow::halo
