#pragma once
// Visiting every point of a box, and point-in-box, for tests that check fields point by point.
#include <array>

#include "mesh/box.hpp"

namespace gridflow::testing {

/// Calls f(p) for every point p of `box`, x fastest.
template <int Dim, class F>
void for_each_point(const mesh::Box<Dim>& box, F&& f) {
  if (box.empty()) return;
  std::array<mesh::Index, Dim> p = box.lo;
  while (true) {
    f(p);
    int d = 0;
    while (d < Dim && p[d] == box.hi[d]) p[d] = box.lo[d], ++d;
    if (d == Dim) return;
    ++p[d];
  }
}

template <int Dim>
bool inside(const mesh::Box<Dim>& b, const std::array<mesh::Index, Dim>& p) {
  for (int d = 0; d < Dim; ++d)
    if (p[d] < b.lo[d] || p[d] > b.hi[d]) return false;
  return true;
}

}  // namespace gridflow::testing
