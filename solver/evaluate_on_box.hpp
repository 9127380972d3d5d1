#pragma once
// A function of the grid coordinates (x, y[, z]) evaluated on every point of a box: whole
// x-rows batched into bulk calls of about a million points, so the bulk mode's OpenMP
// team gets work enough to pay for itself (a call per point, or per row of a 1025^3 grid, left
// muParser's evaluation serial or fork-bound) while the scratch columns stay a few tens of MiB however
// large the box. The columns are filled by all host threads; a formula of no coordinate (the
// common initial value "0") is evaluated once.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/core/for_each_host.hpp"
#include "mesh/box.hpp"
#include "mesh/grid.hpp"
#include "solver/coordinate_function.hpp"

namespace gridflow::solver {

/// Calls put(point, value) for every point of `box` (point: the std::array of its indices), x
/// fastest. The expression's variables are the Dim coordinates, in axis order.
template <int Dim, class Put>
void evaluate_on_box(const CoordinateFunction& e, const mesh::Grid<Dim>& grid, const mesh::Box<Dim>& box, Put&& put) {
  if (box.empty()) return;
  const auto nx = static_cast<std::size_t>(box.extent(0));
  const std::size_t rows = static_cast<std::size_t>(box.size()) / nx;
  // The indices of row `r` (x at box.lo[0]); rows run through y fastest, then z.
  auto row_start = [&](std::size_t r) {
    std::array<mesh::Index, Dim> p = box.lo;
    for (int d = 1; d < Dim; ++d) {
      const auto extent = static_cast<std::size_t>(box.extent(d));
      p[d] = box.lo[d] + static_cast<mesh::Index>(r % extent);
      r /= extent;
    }
    return p;
  };
  if (e.constant()) {
    const double v = e.eval(0, 0, 0);
    for (std::size_t r = 0; r < rows; ++r)
      for (auto p = row_start(r); p[0] <= box.hi[0]; ++p[0]) put(p, v);
    return;
  }
  constexpr std::size_t points_per_call = std::size_t(1) << 20;
  const std::size_t rows_per_call = std::max<std::size_t>(1, points_per_call / nx);
  std::array<std::vector<double>, Dim> columns;
  for (auto& c : columns) c.resize(std::min(rows, rows_per_call) * nx);
  std::vector<double> value(columns[0].size());
  std::vector<const double*> pointers;
  for (const auto& c : columns) pointers.push_back(c.data());

  for (std::size_t first = 0; first < rows; first += rows_per_call) {
    const std::size_t count = std::min(rows_per_call, rows - first);
    kernels::core::for_each_index_host("expression_on_box::columns", static_cast<std::int64_t>(count), [&](const std::int64_t n) {
      const auto r = static_cast<std::size_t>(n);
      const auto p = row_start(first + r);
      for (std::size_t i = 0; i < nx; ++i) {
        columns[0][r * nx + i] = grid.coordinate(0, box.lo[0] + static_cast<mesh::Index>(i));
        for (int d = 1; d < Dim; ++d) columns[d][r * nx + i] = grid.coordinate(d, p[d]);
      }
    });
    e.eval_bulk(static_cast<int>(count * nx), pointers, value.data());
    for (std::size_t r = 0; r < count; ++r) {
      auto p = row_start(first + r);
      for (std::size_t i = 0; i < nx; ++i, ++p[0]) put(p, value[r * nx + i]);
    }
  }
}

}  // namespace gridflow::solver
