#pragma once
// Box<Dim>: an inclusive range of integer grid indices lo..hi per axis (axis 0 = x, contiguous).
// A box with hi < lo on any axis is empty.
#include <algorithm>
#include <array>
#include <cstdint>
#include <ostream>
#include <vector>

namespace gridflow::mesh {

using Index = std::int64_t;

template <int Dim>
struct Box {
  static_assert(Dim == 2 || Dim == 3, "gridflow boxes are 2D or 3D");
  std::array<Index, Dim> lo{};
  std::array<Index, Dim> hi{};

  constexpr Index extent(int axis) const { return hi[axis] - lo[axis] + 1; }
  constexpr bool empty() const {
    for (int d = 0; d < Dim; ++d)
      if (hi[d] < lo[d]) return true;
    return false;
  }
  /// Number of points; 0 for an empty box.
  constexpr Index size() const {
    if (empty()) return 0;
    Index n = 1;
    for (int d = 0; d < Dim; ++d) n *= extent(d);
    return n;
  }
  /// The box widened by `width` points on every side of every axis (shrunk if width < 0).
  constexpr Box grow(Index width) const {
    Box b = *this;
    for (int d = 0; d < Dim; ++d) {
      b.lo[d] -= width;
      b.hi[d] += width;
    }
    return b;
  }
  /// The box widened by `width` on both sides of one axis.
  constexpr Box grow(int axis, Index width) const {
    Box b = *this;
    b.lo[axis] -= width;
    b.hi[axis] += width;
    return b;
  }
  constexpr Box intersect(const Box& other) const {
    Box b;
    for (int d = 0; d < Dim; ++d) {
      b.lo[d] = std::max(lo[d], other.lo[d]);
      b.hi[d] = std::min(hi[d], other.hi[d]);
    }
    return b;
  }
  constexpr bool contains(const Box& inner) const {
    if (inner.empty()) return true;
    for (int d = 0; d < Dim; ++d)
      if (inner.lo[d] < lo[d] || inner.hi[d] > hi[d]) return false;
    return true;
  }
  /// The one-point-thick face of this box on `side` (0 = low, 1 = high) of `axis`.
  constexpr Box face(int axis, int side) const {
    Box b = *this;
    if (side == 0) b.hi[axis] = lo[axis];
    else b.lo[axis] = hi[axis];
    return b;
  }
  friend constexpr bool operator==(const Box& a, const Box& b) { return a.lo == b.lo && a.hi == b.hi; }
  friend constexpr bool operator!=(const Box& a, const Box& b) { return !(a == b); }
};

/// The points of `outer` not in `inner` as disjoint boxes (at most 2 Dim slabs). `inner` is
/// clipped to `outer` first.
template <int Dim>
std::vector<Box<Dim>> box_difference(const Box<Dim>& outer, const Box<Dim>& inner_box) {
  std::vector<Box<Dim>> pieces;
  const Box<Dim> inner = outer.intersect(inner_box);
  if (inner.empty()) {
    if (!outer.empty()) pieces.push_back(outer);
    return pieces;
  }
  Box<Dim> rest = outer;  // peel slabs off the slowest axis first, so slabs are long in x
  for (int d = Dim - 1; d >= 0; --d) {
    if (rest.lo[d] < inner.lo[d]) {
      Box<Dim> slab = rest;
      slab.hi[d] = inner.lo[d] - 1;
      pieces.push_back(slab);
    }
    if (rest.hi[d] > inner.hi[d]) {
      Box<Dim> slab = rest;
      slab.lo[d] = inner.hi[d] + 1;
      pieces.push_back(slab);
    }
    rest.lo[d] = inner.lo[d];
    rest.hi[d] = inner.hi[d];
  }
  return pieces;
}

template <int Dim>
std::ostream& operator<<(std::ostream& os, const Box<Dim>& b) {
  os << '[';
  for (int d = 0; d < Dim; ++d) os << (d ? ", " : "") << b.lo[d] << ".." << b.hi[d];
  return os << ']';
}

}  // namespace gridflow::mesh
