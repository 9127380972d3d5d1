#pragma once
// Decomposition<Dim>: how the grid's points are split among the ranks of a Cartesian
// communicator. Every point, boundary points included, is owned by exactly one rank; part sizes
// along an axis differ by at most one point (the first parts take the remainder).
#include <mpi.h>

#include <array>
#include <memory>
#include <vector>

#include "mesh/box.hpp"
#include "mesh/grid.hpp"

namespace gridflow::mesh {

/// Inclusive index range of part `part` when points 0..n_points-1 are split into `parts`.
std::array<Index, 2> split_range(Index n_points, int parts, int part);

/// A communicator freed when the last copy goes away.
using SharedComm = std::shared_ptr<const MPI_Comm>;
SharedComm adopt_comm(MPI_Comm comm);

template <int Dim>
class Decomposition {
 public:
  /// Collective over `parent`. `dims[d] == 0` lets MPI_Dims_create choose that axis; the product
  /// of fixed dims must divide the rank count. Throws InputError when the split is impossible
  /// (dims do not multiply to the rank count, or a rank would own fewer than `min_points`
  /// points along an axis).
  Decomposition(const Grid<Dim>& grid, MPI_Comm parent, std::array<int, Dim> dims = {}, Index min_points = 1);

  const Grid<Dim>& grid() const { return m_grid; }
  /// The Cartesian communicator (MPI_ERRORS_RETURN set); ranks in it equal ranks in `parent`.
  MPI_Comm comm() const { return *m_comm; }
  int rank() const { return m_rank; }
  int size() const { return m_size; }
  const std::array<int, Dim>& dims() const { return m_dims; }
  const std::array<int, Dim>& coords() const { return m_coords; }

  /// The points this rank owns (global indices, inclusive).
  const Box<Dim>& owned() const { return m_owned; }
  /// The points rank `r` owns.
  Box<Dim> owned_by(int r) const;
  /// The rank at relative position `offset` (each entry -1, 0 or +1), or MPI_PROC_NULL where
  /// that lies outside the process grid (a physical boundary).
  int neighbour(const std::array<int, Dim>& offset) const;
  /// Whether this rank's owned box touches the domain boundary on `side` (0 low, 1 high) of `axis`.
  bool at_physical_boundary(int axis, int side) const {
    return side == 0 ? m_coords[axis] == 0 : m_coords[axis] == m_dims[axis] - 1;
  }

 private:
  Box<Dim> box_of(const std::array<int, Dim>& coords) const;

  Grid<Dim> m_grid;
  SharedComm m_comm;
  int m_rank = 0;
  int m_size = 1;
  std::array<int, Dim> m_dims{};
  std::array<int, Dim> m_coords{};
  Box<Dim> m_owned{};
};

extern template class Decomposition<2>;
extern template class Decomposition<3>;

}  // namespace gridflow::mesh
