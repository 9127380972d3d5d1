#pragma once
// MultigridGather<T>: the grid transfer between the last multigrid level split over several
// ranks and the next coarser level, which lives on rank 0 alone.
//
// Restriction: every rank restricts onto the coarse interior points under its own fine points
// (coarse I with fine 2I owned; these pieces partition the coarse points, and need fine ghosts of
// width 1), and rank 0 gathers the pieces into the coarse right-hand side. Prolongation: rank 0
// scatters to every rank the coarse points its fine interior points interpolate from, and each
// rank adds the interpolation to its fine solution. Device fields travel through host memory.
#include <memory>
#include <vector>

#include "kernels/multigrid/multigrid_point.hpp"
#include "mesh/decomposition.hpp"
#include "mesh/device.hpp"
#include "mesh/field.hpp"

namespace gridflow::halo {

template <class T>
class MultigridGather {
 public:
  /// `fine` (which must outlive this) is split over several ranks; `coarse` is its grid with the
  /// axes of `coarsening` halved. Every rank computes every rank's pieces; no communication.
  MultigridGather(const mesh::Decomposition<3>& fine, const mesh::Grid<3>& coarse, const kernels::multigrid::Coarsening& coarsening,
                  mesh::MemorySpace space, StreamHandle stream);

  /// Collective over fine.comm(). `fine_residual` has its ghosts current to width 1; on rank 0,
  /// `coarse_rhs` (the full coarse grid's field) receives the restriction at every coarse
  /// interior point. `coarse_rhs` is ignored on the other ranks (pass null).
  void restrict_to_root(const mesh::Field<T, 3>& fine_residual, mesh::Field<T, 3>* coarse_rhs);

  /// Collective over fine.comm(). Rank 0 passes the coarse correction (zero on the coarse
  /// boundary), the others null; every rank adds its trilinear interpolation to `fine_solution`
  /// at its owned interior points.
  void prolong_from_root(const mesh::Field<T, 3>* coarse_correction, mesh::Field<T, 3>& fine_solution);

 private:
  /// Values of `box` of `field` into host memory, through the device staging buffer if needed.
  void box_to_host(const mesh::Field<T, 3>& field, const mesh::Box<3>& box, T* host, std::size_t staging_offset);
  /// Copies `count` host values to the device staging buffer (device fields); returns where they are.
  const T* host_to_space(const T* host, std::size_t count);

  MPI_Comm m_comm;
  int m_rank = 0;
  mesh::MemorySpace m_space;
  StreamHandle m_stream;
  kernels::multigrid::Coarsening m_coarsening;
  mesh::Box<3> m_fine_updated;          // this rank's owned interior fine points
  std::vector<mesh::Box<3>> m_restricted;  // per rank: the coarse interior points under its fine points
  std::vector<mesh::Box<3>> m_read;        // per rank: the coarse points its interpolation reads
  std::vector<int> m_restricted_counts, m_restricted_offsets, m_read_counts, m_read_offsets;
  std::unique_ptr<mesh::Field<T, 3>> m_restricted_piece, m_read_piece;  // this rank's boxes; null if empty
  std::vector<T> m_piece;  // MPI staging of this rank's piece
  std::vector<T> m_host;   // MPI staging on rank 0 of every rank's piece (empty elsewhere)
  mesh::Buffer m_device;   // device fields: staging of either in device memory
};

extern template class MultigridGather<float>;
extern template class MultigridGather<double>;

}  // namespace gridflow::halo
