#pragma once
// Shared by the host (tests/mpi) and device (tests/gpu) halo tests: grids that do not split
// evenly, process grids that split every axis in turn, and the fill/check of a field whose
// owned points hold a unique function of the global index and whose ghosts hold a sentinel.
#include <mpi.h>

#include <algorithm>
#include <array>
#include <sstream>
#include <string>
#include <vector>

#include "box_iteration.hpp"
#include "mesh/box.hpp"
#include "mesh/field.hpp"
#include "mesh/grid.hpp"
#include "typed_cases.hpp"

namespace gridflow::halo::test {

using gridflow::testing::for_each_point;

using gridflow::testing::Case;

constexpr int max_width = 3;  // ghost width of the test fields; exchanges use 1..max_width
constexpr double sentinel = -1.0;

/// Point counts 29 x 23 (2D) and 23 x 19 x 25 (3D), none divisible by 2, 3, 4 or 6; with more
/// ranks, axes grow to size * max_width + 1 points, so all ranks along one axis still own
/// >= max_width points each (value_at stays exact up to 64 points, 21 ranks).
template <int Dim>
mesh::Grid<Dim> uneven_grid(int size) {
  mesh::Grid<Dim> g;
  if constexpr (Dim == 2) g.n = {28, 22};
  else g.n = {22, 18, 24};
  for (int d = 0; d < Dim; ++d) {
    g.n[d] = std::max<mesh::Index>(g.n[d], static_cast<mesh::Index>(size) * max_width);
    g.length[d] = 1.0;
  }
  return g;
}

/// MPI_Dims_create's choice, its reverse, and every rank along one axis: each axis gets split.
template <int Dim>
std::vector<std::array<int, Dim>> process_grids(int size) {
  std::array<int, Dim> chosen{};
  MPI_Dims_create(size, Dim, chosen.data());
  std::vector<std::array<int, Dim>> grids{chosen};
  std::reverse(chosen.begin(), chosen.end());
  grids.push_back(chosen);
  for (int d = 0; d < Dim; ++d) {
    std::array<int, Dim> along{};
    along.fill(1);
    along[d] = size;
    grids.push_back(along);
  }
  std::sort(grids.begin(), grids.end());
  grids.erase(std::unique(grids.begin(), grids.end()), grids.end());
  return grids;
}

template <int Dim>
std::string to_string(const std::array<int, Dim>& a) {
  std::ostringstream os;
  os << '[';
  for (int d = 0; d < Dim; ++d) os << (d ? "," : "") << a[d];
  return os.str() + ']';
}

/// A value no two points share, exact in float for grids of up to 64 points per axis; `round`
/// changes every value, so a second exchange that moved nothing would be caught.
template <class T, int Dim>
T value_at(const std::array<mesh::Index, Dim>& p, int round) {
  double v = 1.0 + static_cast<double>(round) * 64.0 * 64.0 * 64.0;
  double scale = 1.0;
  for (int d = 0; d < Dim; ++d, scale *= 64.0) v += scale * static_cast<double>(p[d]);
  return static_cast<T>(v);
}


// The point parameters are not deduced (std::array's size is a size_t, Dim an int): Dim comes
// from the box or field.
template <int Dim>
using Point = std::array<mesh::Index, static_cast<std::size_t>(Dim)>;

template <int Dim>
bool contains(const mesh::Box<Dim>& box, const Point<Dim>& p) {
  for (int d = 0; d < Dim; ++d)
    if (p[d] < box.lo[d] || p[d] > box.hi[d]) return false;
  return true;
}

template <class T, int Dim>
T& at(mesh::Field<T, Dim>& f, const Point<Dim>& p) {
  if constexpr (Dim == 2) return f(p[0], p[1]);
  else return f(p[0], p[1], p[2]);
}

/// Owned points get value_at(p, round); every other point of the ghosted box the sentinel.
template <class T, int Dim>
void fill(mesh::Field<T, Dim>& f, int round) {
  for_each_point<Dim>(f.ghosted(), [&](const std::array<mesh::Index, Dim>& p) {
    at(f, p) = contains(f.owned(), p) ? value_at<T, Dim>(p, round) : static_cast<T>(sentinel);
  });
}

struct Mismatches {
  long count = 0;
  std::string first;  ///< the first few, as " (i,j)=got want expected;"
};

/// Points of the ghosted box that differ from what a width-`width` exchange must leave: the
/// function on owned().grow(width) ∩ grid, the sentinel elsewhere.
template <class T, int Dim>
Mismatches check(mesh::Field<T, Dim>& f, const mesh::Grid<Dim>& grid, int width, int round) {
  Mismatches m;
  const mesh::Box<Dim> filled = f.owned().grow(width).intersect(grid.points());
  std::ostringstream os;
  for_each_point<Dim>(f.ghosted(), [&](const std::array<mesh::Index, Dim>& p) {
    const T expected = contains(filled, p) ? value_at<T, Dim>(p, round) : static_cast<T>(sentinel);
    const T got = at(f, p);
    if (got == expected) return;
    if (m.count++ < 5) {
      os << " (";
      for (int d = 0; d < Dim; ++d) os << (d ? "," : "") << p[d];
      os << ")=" << got << " want " << expected << ';';
    }
  });
  m.first = os.str();
  return m;
}

}  // namespace gridflow::halo::test
