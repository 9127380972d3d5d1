#include "halo/halo_region.hpp"

#include "mesh/check.hpp"
#include "mesh/decomposition.hpp"

namespace gridflow::halo {

template <int Dim>
mesh::Box<Dim> owned_box(const std::array<mesh::Index, Dim>& points, const std::array<int, Dim>& dims,
                         const std::array<int, Dim>& coords) {
  mesh::Box<Dim> b;
  for (int d = 0; d < Dim; ++d) {
    const auto r = mesh::split_range(points[d], dims[d], coords[d]);
    b.lo[d] = r[0];
    b.hi[d] = r[1];
  }
  return b;
}

template <int Dim>
std::vector<HaloRegion<Dim>> halo_regions(const std::array<mesh::Index, Dim>& points, const std::array<int, Dim>& dims,
                                          const std::array<int, Dim>& coords, int width) {
  GRIDFLOW_REQUIRE(width >= 0, "halo width must be >= 0");
  const mesh::Box<Dim> mine = owned_box<Dim>(points, dims, coords);
  const mesh::Box<Dim> reach = mine.grow(width);

  // Per axis, the process-grid coordinates whose parts meet lo-w..hi+w. Parts are contiguous
  // and ordered, so they form one range around this rank's coordinate.
  std::array<int, Dim> first{}, last{};
  for (int d = 0; d < Dim; ++d) {
    first[d] = last[d] = coords[d];
    while (first[d] > 0 && mesh::split_range(points[d], dims[d], first[d] - 1)[1] >= reach.lo[d]) --first[d];
    while (last[d] < dims[d] - 1 && mesh::split_range(points[d], dims[d], last[d] + 1)[0] <= reach.hi[d]) ++last[d];
  }

  std::vector<HaloRegion<Dim>> regions;
  std::array<int, Dim> c = first;
  while (true) {
    if (c != coords) {
      HaloRegion<Dim> r;
      for (int d = 0; d < Dim; ++d) r.offset[d] = c[d] - coords[d];
      const mesh::Box<Dim> theirs = owned_box<Dim>(points, dims, c);
      r.recv = theirs.intersect(reach);
      r.send = mine.intersect(theirs.grow(width));
      regions.push_back(r);
    }
    int d = 0;  // odometer, axis 0 fastest
    while (d < Dim && c[d] == last[d]) c[d] = first[d], ++d;
    if (d == Dim) break;
    ++c[d];
  }
  return regions;
}

template <int Dim>
int direction_tag(const std::array<int, Dim>& offset) {
  int tag = 0;
  for (int d = Dim - 1; d >= 0; --d) tag = 3 * tag + (offset[d] > 0 ? 2 : offset[d] == 0 ? 1 : 0);
  return tag;
}

template std::vector<HaloRegion<2>> halo_regions<2>(const std::array<mesh::Index, 2>&, const std::array<int, 2>&,
                                                     const std::array<int, 2>&, int);
template std::vector<HaloRegion<3>> halo_regions<3>(const std::array<mesh::Index, 3>&, const std::array<int, 3>&,
                                                     const std::array<int, 3>&, int);
template mesh::Box<2> owned_box<2>(const std::array<mesh::Index, 2>&, const std::array<int, 2>&, const std::array<int, 2>&);
template mesh::Box<3> owned_box<3>(const std::array<mesh::Index, 3>&, const std::array<int, 3>&, const std::array<int, 3>&);
template int direction_tag<2>(const std::array<int, 2>&);
template int direction_tag<3>(const std::array<int, 3>&);

}  // namespace gridflow::halo
