#pragma once
// PeriodicGhosts<T, Dim>: fills the ghost points of a decomposed field that lie beyond the grid's
// edges with the grid's periodic images (index i holds the value at i mod points, per axis), as
// the `wrap` filters need on axes split over ranks. The ghost exchange fills the ghosts inside
// the grid; these are the rest, up to width[d] deep along axis d, corners across a rank boundary
// included.
//
// Each of the 3^Dim - 1 shifts of the grid by one period along some axes is one box
// redistribution (halo/box_redistribution.hpp) from the owners of the source points into a piece
// of this rank, then copied into the ghosts at the shifted place. Shifts that no rank needs are
// left out, so a run whose ranks all lie inside the grid moves nothing.
#include <array>
#include <memory>
#include <vector>

#include "halo/box_redistribution.hpp"
#include "mesh/decomposition.hpp"
#include "mesh/device.hpp"
#include "mesh/field.hpp"

namespace gridflow::app {

template <class T, int Dim>
class PeriodicGhosts {
 public:
  /// Not collective. Fields passed to fill() have this rank's owned box, ghost width >= every
  /// width[d], and memory `space`; device work is queued on `stream`. Requires 0 <= width[d] <=
  /// the points of axis d (one period reaches every ghost).
  PeriodicGhosts(const mesh::Decomposition<Dim>& decomposition, const std::array<int, Dim>& width, mesh::MemorySpace space,
                 StreamHandle stream);
  ~PeriodicGhosts();

  /// Collective over the decomposition's ranks. Sets field's ghosts beyond the grid, up to
  /// width[d] deep along axis d, from the owned points of whichever rank holds their image. Reads only owned
  /// points. Host fields: done on return; device fields: queued on the stream.
  void fill(mesh::Field<T, Dim>& field);

 private:
  struct Image {
    mesh::Box<Dim> source, target;  // this rank's: inside the grid, and its ghosts (source + shift)
    std::unique_ptr<halo::BoxRedistribution<T, Dim>> move;
    std::unique_ptr<mesh::Field<T, Dim>> piece;  // holds `source`; null where it is empty
  };
  std::array<int, Dim> m_width;
  mesh::Box<Dim> m_owned;
  StreamHandle m_stream;
  std::vector<Image> m_images;
  mesh::Buffer m_staging;  // the largest piece, between pack and unpack
};

extern template class PeriodicGhosts<float, 2>;
extern template class PeriodicGhosts<double, 2>;
extern template class PeriodicGhosts<float, 3>;
extern template class PeriodicGhosts<double, 3>;

}  // namespace gridflow::app
