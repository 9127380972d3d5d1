#pragma once
// Loops of the multigrid host oracles over a box's points on the Kokkos host execution space:
// rows (j, k) in parallel, x innermost. Only *_host.cpp files include this.
#include <Kokkos_Core.hpp>

#include "mesh/box.hpp"

namespace gridflow::kernels::multigrid::host {

/// row(j, k) for every x-row of `box`.
template <class Row>
void for_each_row(const char* label, const mesh::Box<3>& box, const Row& row) {
  if (box.empty()) return;
  const auto ny = box.extent(1);
  Kokkos::parallel_for(label, Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, ny * box.extent(2)),
                       [&](const std::int64_t r) { row(box.lo[1] + r % ny, box.lo[2] + r / ny); });
}

/// op(i, j, k) for every point of `box`.
template <class Op>
void for_each_point(const char* label, const mesh::Box<3>& box, const Op& op) {
  for_each_row(label, box, [&](std::int64_t j, std::int64_t k) {
    for (std::int64_t i = box.lo[0]; i <= box.hi[0]; ++i) op(i, j, k);
  });
}

/// The sum over `box` of term(i, j, k) (a double), row by row.
template <class Term>
double sum_over_points(const char* label, const mesh::Box<3>& box, const Term& term) {
  if (box.empty()) return 0;
  const auto ny = box.extent(1);
  double total = 0;
  Kokkos::parallel_reduce(
      label, Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, ny * box.extent(2)),
      [&](const std::int64_t r, double& acc) {
        const std::int64_t j = box.lo[1] + r % ny, k = box.lo[2] + r / ny;
        double row = 0;
        for (std::int64_t i = box.lo[0]; i <= box.hi[0]; ++i) row += term(i, j, k);
        acc += row;
      },
      total);
  return total;
}

}  // namespace gridflow::kernels::multigrid::host
