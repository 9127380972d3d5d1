#pragma once
// OwnedHyperslab<Dim>: where a rank's owned points of a field lie in the global dataset of the
// grid (all points, HDF5 axis 0 the slowest: x, y, z reversed) and in the field's own ghosted
// memory. Every parallel field write and read (output series, checkpoints) selects through it.
#include <hdf5.h>

#include "io/h5_handle.hpp"
#include "mesh/check.hpp"
#include "mesh/field.hpp"
#include "mesh/grid.hpp"

namespace gridflow::io {

template <int Dim>
struct OwnedHyperslab {
  hsize_t global[Dim], start[Dim], count[Dim], memory[Dim], memory_start[Dim];

  template <class T>
  OwnedHyperslab(const mesh::Field<T, Dim>& f, const mesh::Grid<Dim>& grid) {
    const auto view = f.view();
    const auto ghosted = f.ghosted();
    for (int d = 0; d < Dim; ++d) {
      const int a = Dim - 1 - d;
      global[a] = static_cast<hsize_t>(grid.n[d] + 1);
      start[a] = static_cast<hsize_t>(f.owned().lo[d]);
      count[a] = static_cast<hsize_t>(f.owned().extent(d));
      memory_start[a] = static_cast<hsize_t>(f.owned().lo[d] - ghosted.lo[d]);
      memory[a] = static_cast<hsize_t>(d == 0 ? view.stride[1] : ghosted.extent(d));
    }
  }

  /// Selects the owned points in `file_space`, a dataspace of shape `global`.
  void select_in_file(hid_t file_space) const {
    GRIDFLOW_H5_CHECK(H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start, nullptr, count, nullptr));
  }
  /// The field's memory as a dataspace with the owned points selected.
  H5Space memory_space() const {
    H5Space space(GRIDFLOW_H5_CHECK(H5Screate_simple(Dim, memory, nullptr)));
    GRIDFLOW_H5_CHECK(H5Sselect_hyperslab(space, H5S_SELECT_SET, memory_start, nullptr, count, nullptr));
    return space;
  }
};

}  // namespace gridflow::io
