#pragma once
// An expression of (x, y, z) evaluated on every point of a box of a 3D grid: one muParser bulk call
// per z-plane, so the OpenMP team of the bulk mode gets work enough to pay for itself (a call per
// point, or per row of a 1025^3 grid, leaves the evaluation serial or fork-bound).
#include <cstddef>
#include <vector>

#include "mesh/box.hpp"
#include "mesh/grid.hpp"
#include "solver/expression.hpp"

namespace gridflow::solver {

/// Calls put(i, j, k, value) for every point of `box`, plane by plane, x fastest.
template <class Put>
void evaluate_on_box(const Expression& e, const mesh::Grid<3>& grid, const mesh::Box<3>& box, Put&& put) {
  if (box.empty()) return;
  const auto nx = static_cast<std::size_t>(box.extent(0)), ny = static_cast<std::size_t>(box.extent(1));
  std::vector<double> x(nx * ny), y(nx * ny), z(nx * ny), value(nx * ny);
  for (std::size_t j = 0; j < ny; ++j)
    for (std::size_t i = 0; i < nx; ++i) {
      x[i + j * nx] = grid.coordinate(0, box.lo[0] + static_cast<mesh::Index>(i));
      y[i + j * nx] = grid.coordinate(1, box.lo[1] + static_cast<mesh::Index>(j));
    }
  for (auto k = box.lo[2]; k <= box.hi[2]; ++k) {
    std::fill(z.begin(), z.end(), grid.coordinate(2, k));
    e.eval_bulk(static_cast<int>(nx * ny), {x.data(), y.data(), z.data()}, value.data());
    for (std::size_t j = 0; j < ny; ++j)
      for (std::size_t i = 0; i < nx; ++i)
        put(box.lo[0] + static_cast<mesh::Index>(i), box.lo[1] + static_cast<mesh::Index>(j), k, value[i + j * nx]);
  }
}

}  // namespace gridflow::solver
