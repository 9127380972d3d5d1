#pragma once
// A decomposed field assembled on every rank, for tests that compare runs point by point.
#include <mpi.h>

#include <cstddef>
#include <vector>

#include "box_iteration.hpp"
#include "mesh/field.hpp"

namespace gridflow::testing {

/// The values of `field` on the points of `whole` (the grid's points), x fastest, on every rank
/// of `comm`: each rank contributes its `owned` points (each point is owned once, so a sum over
/// the ranks assembles the field exactly). `field` may live on the device; the work queued on
/// `stream` is waited for.
template <class T, int Dim>
std::vector<T> gather_owned(const mesh::Field<T, Dim>& field, const mesh::Box<Dim>& owned, const mesh::Box<Dim>& whole,
                            MPI_Comm comm, StreamHandle stream = nullptr) {
  mesh::Field<T, Dim> host(field.owned(), field.ghost_width(), mesh::MemorySpace::host);
  if (stream) mesh::synchronize(stream);
  host.copy_from(field);
  std::vector<T> local(static_cast<std::size_t>(whole.size()), T(0)), global(local.size());
  for_each_point(owned, [&](const auto& p) {
    std::size_t k = 0;
    for (int d = Dim - 1; d >= 0; --d) k = k * static_cast<std::size_t>(whole.extent(d)) + static_cast<std::size_t>(p[d] - whole.lo[d]);
    if constexpr (Dim == 2) local[k] = host(p[0], p[1]);
    else local[k] = host(p[0], p[1], p[2]);
  });
  MPI_Allreduce(local.data(), global.data(), static_cast<int>(local.size()), sizeof(T) == 4 ? MPI_FLOAT : MPI_DOUBLE,
                MPI_SUM, comm);
  return global;
}

}  // namespace gridflow::testing
