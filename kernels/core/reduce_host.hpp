#pragma once
// Deterministic reductions over a box on the host. Rows run in parallel, each into a slot of its
// own; the slots are then joined one after another in row order (y fastest, then z), so the
// result has the same bits whatever the thread count or the Kokkos back-end. On one thread this
// is the serial reduction, row by row, that the host kernels have always computed (Kokkos'
// Serial parallel_reduce), so moving a kernel onto it keeps its bits.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "kernels/core/for_each_host.hpp"
#include "kernels/core/reducers.hpp"

namespace gridflow::kernels::core {

/// The reduction over the x-rows of `box` of row(j) (2D) or row(j, k) (3D), which returns the
/// row's Reducer::Value (and may write as it goes, as a fused sweep does); blocks.
template <class Reducer, int Dim, class Row>
typename Reducer::Value reduce_rows_host(const char* label, const mesh::Box<Dim>& box, const Row& row) {
  using Value = typename Reducer::Value;
  constexpr std::int64_t rows_per_batch = std::int64_t(1) << 14;  // bounds the slots' memory
  const std::int64_t rows = row_count(box);
  std::vector<Value> slots(static_cast<std::size_t>(std::min(rows, rows_per_batch)));
  Value total = Reducer::identity();
  for (std::int64_t first = 0; first < rows; first += rows_per_batch) {
    const std::int64_t count = std::min(rows_per_batch, rows - first);
    for_each_index_host(label, count, [&](std::int64_t r) { slots[r] = call_row(box, first + r, row); });
    for (std::int64_t r = 0; r < count; ++r) Reducer::join(total, slots[r]);
  }
  return total;
}

/// The reduction over the points of `box` of term(i, j) (2D) or term(i, j, k) (3D), a
/// Reducer::Value: joined along each row in x order, then the rows in row order; blocks.
template <class Reducer, int Dim, class Term>
typename Reducer::Value reduce_host(const char* label, const mesh::Box<Dim>& box, const Term& term) {
  return reduce_rows_host<Reducer>(label, box, [&](auto... jk) {
    typename Reducer::Value row = Reducer::identity();
    for (mesh::Index i = box.lo[0]; i <= box.hi[0]; ++i) Reducer::join(row, term(i, jk...));
    return row;
  });
}

}  // namespace gridflow::kernels::core
