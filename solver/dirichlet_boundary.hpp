#pragma once
// DirichletBoundary<T, Dim>: writes the boundary values given by per-face expressions into the
// boundary points of a field. Face (axis, side) holds the points with index 0 (side 0) or n
// (side 1) along `axis`; where faces meet, the face of the lower axis wins (in 2D the left and
// right sides own the corners), so every boundary point has one expression.
//
// Values are evaluated on the host and, for device fields, staged through pinned memory
// and unpacked on the stream; two staging slots alternate so the host evaluates the next step's
// values while the device still works on the previous ones.
#include <array>
#include <map>
#include <optional>
#include <vector>

#include "kernels/core/non_finite_flag.hpp"
#include "kernels/stencil/heat_ring.hpp"
#include "mesh/device.hpp"
#include "mesh/field.hpp"
#include "mesh/grid.hpp"
#include "solver/coordinate_function.hpp"

namespace gridflow::solver {

template <class T, int Dim>
class DirichletBoundary {
 public:
  /// `faces[2*axis + side]`: functions of (x, y[, z], t).
  DirichletBoundary(const mesh::Grid<Dim>& grid, std::array<SharedFunction, 2 * Dim> faces, mesh::MemorySpace space,
                    StreamHandle stream);

  /// Whether any face's value changes with t (if not, values written once stay valid).
  bool time_dependent() const;

  /// Sets every boundary point inside `region` (which must lie in the field's ghosted box) to
  /// its value at time t. Host fields: blocks. Device fields: asynchronous on the stream.
  /// A value that is not finite (the expression's, or its conversion to T) is recorded in `flag`,
  /// when given, as one of step `step`; the values are written as they are.
  void apply(mesh::Field<T, Dim>& field, const mesh::Box<Dim>& region, double t,
             kernels::core::NonFiniteFlag* flag = nullptr, std::int64_t step = 0);

  /// 2D grids (throws Error on 3D ones): the values of the boundary points of `box` at the inner
  /// steps of a fused heat launch that starts at step `step0`, t = (step0 + s) dt for s = 1..steps-1,
  /// in HeatRing's layout around the grid's interior (kernels/stencil/heat_ring.hpp), in the memory
  /// space of the fields. Host: valid until the next call. Device: staged like apply's values and
  /// copied on the stream; valid for the work queued on it before the second call after this one.
  /// Values that are not finite go to `flag`, when given, as ones of step step0 + s.
  kernels::stencil::HeatRing<T> ring(const mesh::Box<Dim>& box, std::int64_t step0, double dt, int steps,
                                     kernels::core::NonFiniteFlag* flag = nullptr);

  /// The boundary points of face (axis, side) that this face's expression owns.
  mesh::Box<Dim> face_points(int axis, int side) const;

 private:
  struct Piece {
    int face;
    mesh::Box<Dim> box;
  };
  struct Staging {
    mesh::Buffer host;
    mesh::Buffer device;
    std::optional<mesh::Event> copied;  // made on first use: a CPU-only build has no events
  };
  const std::vector<Piece>& pieces_in(const mesh::Box<Dim>& region);
  /// The next of `slots` (alternating), holding at least `bytes`, once its last copy has finished.
  Staging& stage(std::array<Staging, 2>& slots, int& next, std::size_t bytes);
  void evaluate(const std::vector<Piece>& pieces, double t, T* out, kernels::core::NonFiniteFlag* flag, std::int64_t step) const;

  mesh::Grid<Dim> m_grid;
  std::array<SharedFunction, 2 * Dim> m_faces;
  mesh::MemorySpace m_space;
  StreamHandle m_stream;
  std::map<std::pair<std::array<mesh::Index, Dim>, std::array<mesh::Index, Dim>>, std::vector<Piece>> m_pieces;
  std::array<Staging, 2> m_staging, m_ring_staging;
  int m_next_slot = 0, m_next_ring_slot = 0;
  std::vector<T> m_host_values, m_ring_values;
  mutable std::vector<double> m_columns;  // evaluate()'s scratch, reused every step
};

extern template class DirichletBoundary<float, 2>;
extern template class DirichletBoundary<double, 2>;
extern template class DirichletBoundary<float, 3>;
extern template class DirichletBoundary<double, 3>;

}  // namespace gridflow::solver
