#pragma once
// Helpers of the non-finite flag tests on the host and on the device: a unit-square grid, a smooth
// field to plant bad values in, and a bitwise comparison of two fields on a box.
#include <cmath>
#include <cstddef>
#include <cstring>

#include "mesh/box.hpp"
#include "mesh/field.hpp"
#include "mesh/grid.hpp"

namespace gridflow::testing {

inline mesh::Grid<2> grid_of(mesh::Index nx, mesh::Index ny) {
  mesh::Grid<2> g;
  g.n = {nx, ny};
  g.length = {1.0, 1.0};
  return g;
}

template <class T>
void fill_smooth(mesh::Field<T, 2>& f) {
  const auto g = f.ghosted();
  for (auto j = g.lo[1]; j <= g.hi[1]; ++j)
    for (auto i = g.lo[0]; i <= g.hi[0]; ++i) f(i, j) = static_cast<T>(std::sin(0.3 * i) * std::cos(0.2 * j));
}

/// Points of `box` whose bits differ. `any_nan_matches`: two NaNs count as equal (a NaN's sign and
/// payload differ between host and device arithmetic).
template <class T>
std::size_t bits_differing(const mesh::Field<T, 2>& a, const mesh::Field<T, 2>& b, const mesh::Box<2>& box,
                           bool any_nan_matches = false) {
  std::size_t differ = 0;
  for (auto j = box.lo[1]; j <= box.hi[1]; ++j)
    for (auto i = box.lo[0]; i <= box.hi[0]; ++i)
      differ += !(any_nan_matches && std::isnan(a(i, j)) && std::isnan(b(i, j))) &&
                std::memcmp(&a(i, j), &b(i, j), sizeof(T)) != 0;
  return differ;
}

}  // namespace gridflow::testing
