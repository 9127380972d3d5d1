#pragma once
// The host side of every kernel family: loops over a box on the Kokkos host execution space. The
// x-rows of the box run in parallel, one call per row with x innermost (so a row stays a plain,
// vectorisable loop), and every loop blocks until it is done. Rows are numbered y fastest, then z.
#include <Kokkos_Core.hpp>

#include <cstdint>

#include "mesh/box.hpp"

namespace gridflow::kernels::core {

/// f(n) for n = 0 .. count-1, in parallel; blocks. The one host loop the others are built on.
template <class F>
void for_each_index_host(const char* label, std::int64_t count, const F& f) {
  if (count <= 0) return;
  Kokkos::parallel_for(label, Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, count),
                       [&](const std::int64_t n) { f(n); });
  // Host back-ends other than Serial may return before the loop ends; callers rely on "blocks".
  Kokkos::DefaultHostExecutionSpace().fence();
}

/// Number of x-rows of `box` (0 when it is empty).
template <int Dim>
std::int64_t row_count(const mesh::Box<Dim>& box) {
  return box.empty() ? 0 : box.size() / box.extent(0);
}

/// row(j) (2D) or row(j, k) (3D) for row number `r` of `box` (y fastest, then z); returns its result.
template <int Dim, class Row>
decltype(auto) call_row(const mesh::Box<Dim>& box, std::int64_t r, const Row& row) {
  if constexpr (Dim == 2) {
    return row(box.lo[1] + r);
  } else {
    const std::int64_t ny = box.extent(1);
    return row(box.lo[1] + r % ny, box.lo[2] + r / ny);
  }
}

/// row(j) (2D) or row(j, k) (3D) for every x-row of `box` (global indices), rows in parallel; blocks.
template <int Dim, class Row>
void for_each_row_host(const char* label, const mesh::Box<Dim>& box, const Row& row) {
  for_each_index_host(label, row_count(box), [&](std::int64_t r) { call_row(box, r, row); });
}

/// op(i, j) (2D) or op(i, j, k) (3D) for every point of `box` (global indices); blocks.
template <int Dim, class Op>
void for_each_host(const char* label, const mesh::Box<Dim>& box, const Op& op) {
  for_each_row_host(label, box, [&](auto... jk) {
    for (mesh::Index i = box.lo[0]; i <= box.hi[0]; ++i) op(i, jk...);
  });
}

}  // namespace gridflow::kernels::core
