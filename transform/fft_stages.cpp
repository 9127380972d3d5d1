#include "transform/fft_stages.hpp"

#include "mesh/check.hpp"
#include "mesh/decomposition.hpp"

namespace gridflow::transform {

namespace {

/// `whole` with axis `axis` cut to part `part` of `parts`.
template <int Dim>
mesh::Box<Dim> part_of(mesh::Box<Dim> whole, int axis, int parts, int part) {
  const auto range = mesh::split_range(whole.extent(axis), parts, part);
  whole.hi[axis] = whole.lo[axis] + range[1];
  whole.lo[axis] = whole.lo[axis] + range[0];
  return whole;
}

/// Every rank's box: `whole` split along axis a1 in p1 parts (coordinate r % p1) and along a2 in
/// p2 parts (coordinate r / p1); a2 < 0 for a split along one axis.
template <int Dim>
std::vector<mesh::Box<Dim>> split(const mesh::Box<Dim>& whole, int ranks, int a1, int p1, int a2 = -1, int p2 = 1) {
  std::vector<mesh::Box<Dim>> boxes;
  for (int r = 0; r < ranks; ++r) {
    auto b = part_of(whole, a1, p1, r % p1);
    if (a2 >= 0) b = part_of(b, a2, p2, r / p1);
    boxes.push_back(b);
  }
  return boxes;
}

}  // namespace

int pencil_rows(int ranks) {
  int p1 = 1;
  for (int p = 1; p * p <= ranks; ++p)
    if (ranks % p == 0) p1 = p;
  return p1;
}

template <int Dim>
FftStages<Dim> plan_fft_stages(const mesh::Box<Dim>& points, FftValues values, FftDecomposition decomposition,
                               int ranks) {
  GRIDFLOW_REQUIRE(ranks >= 1, "a distributed FFT needs at least one rank");
  FftStages<Dim> s;
  s.spectrum = points;
  if (values == FftValues::real) s.spectrum.hi[0] = points.lo[0] + points.extent(0) / 2;
  const auto& c = s.spectrum;
  if constexpr (Dim == 2) {
    GRIDFLOW_REQUIRE(decomposition == FftDecomposition::slab, "a 2D distributed FFT has no pencil decomposition");
    s.stages.push_back({split(c, ranks, 1, ranks), 0});
    s.stages.push_back({split(c, ranks, 0, ranks), 1});
    if (values == FftValues::real) s.real_boxes = split(points, ranks, 1, ranks);
  } else if (decomposition == FftDecomposition::slab) {
    const auto z_slabs = split(c, ranks, 2, ranks);
    s.stages.push_back({z_slabs, 0});
    s.stages.push_back({z_slabs, 1});
    s.stages.push_back({split(c, ranks, 1, ranks), 2});
    if (values == FftValues::real) s.real_boxes = split(points, ranks, 2, ranks);
  } else {
    const int p1 = pencil_rows(ranks), p2 = ranks / p1;
    s.stages.push_back({split(c, ranks, 1, p1, 2, p2), 0});
    s.stages.push_back({split(c, ranks, 0, p1, 2, p2), 1});
    s.stages.push_back({split(c, ranks, 0, p1, 1, p2), 2});
    if (values == FftValues::real) s.real_boxes = split(points, ranks, 1, p1, 2, p2);
  }
  return s;
}

template FftStages<2> plan_fft_stages<2>(const mesh::Box<2>&, FftValues, FftDecomposition, int);
template FftStages<3> plan_fft_stages<3>(const mesh::Box<3>&, FftValues, FftDecomposition, int);

}  // namespace gridflow::transform
