#pragma once
// The ring variant's geometry (host and device): what one launch passes its blocks, the shared
// memory a block needs, and which filters and fields it takes. The kernel is ring_cuda.cuh.
//
// Axes here: 0 = x, 1 = the cross axis y (3D; extent 1 in 2D), 2 = the walk axis (the field's
// last: y in 2D, z in 3D). A block of tx x ty threads owns tx * V columns (V values of T per
// 16-byte vector, one vector per thread) by ty cross rows, and walks a segment of the walk axis
// (a filter that leaves the walk axis alone, a 1D signal: walks `segment` chunks of tx * V
// columns of one row, the x halo of each read with it, so that copies stay in flight):
//   stage  stages x cells x ey x pitch   input rows with their x halo, copied in asynchronously
//                                        (stages - 1) steps ahead, `cells` planes per step
//   mid    cells x ey x (tx V)           3D only: the x pass of a step's planes, for the y pass
// with ey = ty + K1 - 1 (the cross halo). Each thread keeps the last K2 - 1 + cells values of the
// walk pass's inputs (its V columns) in registers, so a plane is read from DRAM once and each
// pass costs one product or FMA per weight and output.
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/filter/correlate_point.hpp"
#include "kernels/filter/filter_tunables.hpp"
#include "kernels/filter/filter_weights.hpp"
#include "mesh/box.hpp"
#include "mesh/field_view.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::filter {

/// Values of T per 16-byte vector: the columns each thread of a ring block owns.
template <class T>
inline constexpr int ring_vector = static_cast<int>(16 / sizeof(T));

/// Everything a ring launch passes its blocks (by value: the weights in the constant bank).
template <class T, int Dim>
struct RingArgs {
  mesh::FieldView<const T, Dim> in;
  mesh::FieldView<T, Dim> out;
  long long ulo[3], un[3];  ///< the update box, axes x, cross, walk
  long long glo[3], gn[3];  ///< the global array, same axes
  int segment;              ///< walk outputs per block
  int pitch;                ///< values per staged row
  int stages;               ///< steps of `cells` planes in shared memory (2..4)
  bool aligned;             ///< in and out rows start on 16-byte vectors at the update's x lo
  BoundaryMode mode;
  T cval;
  T w[3][max_axis_length];  ///< weights per axis, same axes
};

/// The compile-time lengths of a ring kernel for separable weights (axes x, cross, walk, 1 past
/// the filter's axes): {K, 1, K} or {K, 1, 1} in 2D and {K, K, K} in 3D for K in 3, 5, 9, 33,
/// an axis of length 1 being left alone (weight 1); {0, 0, 0} where no ring kernel is compiled.
template <int Dim>
std::array<int, 3> ring_lengths(const std::array<std::vector<double>, Dim>& axis) {
  std::array<int, 3> l{1, 1, 1};
  const int field_axis[3] = {0, Dim == 3 ? 1 : -1, Dim - 1};
  for (int d = 0; d < 3; ++d) {
    if (field_axis[d] < 0) continue;
    const auto& w = axis[field_axis[d]];
    if (w.size() == 1 && w[0] != 1.0) return {0, 0, 0};  // a single weight that scales: the streaming kernel's
    l[d] = static_cast<int>(w.size());
  }
  const int k = l[0];
  if (k != 3 && k != 5 && k != 9 && k != 33) return {0, 0, 0};
  if (Dim == 2 && (l[2] == k || l[2] == 1)) return l;
  if (Dim == 3 && l[1] == k && l[2] == k) return l;
  return {0, 0, 0};
}

/// Columns (along x) a ring block owns: its threads along x times V.
template <class T, int Dim>
int ring_tile_x(const FilterTunables& t) {
  return t.threads / (Dim == 3 ? t.tile_y : 1) * ring_vector<T>;
}

/// Outputs per block along the walk axis (tile_z, in 2D too), clamped to the box; where the walk
/// axis is left alone (walk_length 1), chunks of a row's columns per block, tile_z unclamped.
template <int Dim>
int ring_segment(const FilterTunables& t, const mesh::Box<Dim>& update, int walk_length) {
  const long long s = t.tile_z, n = update.extent(Dim - 1);
  return walk_length == 1 || s < n ? static_cast<int>(s) : static_cast<int>(n);
}

/// Values of a staged row before its first output column: the x halo rounded up to whole vectors.
GRIDFLOW_HOST_DEVICE constexpr int ring_halo_before(int k0, int vector) { return (k0 / 2 + vector - 1) / vector * vector; }

/// Values per staged row: the x halo before the row rounded up to whole vectors, the row, the halo after.
inline int ring_pitch(int tile_x, int k0, int vector) {
  return (ring_halo_before(k0, vector) + tile_x + (k0 - 1 - k0 / 2) + vector - 1) / vector * vector;
}

/// Shared memory of a ring block (bytes), as in the picture above.
template <class T, int Dim>
std::size_t ring_shared_bytes(const FilterTunables& t, const std::array<int, 3>& length) {
  const int cells = t.cells;
  const std::size_t tx = ring_tile_x<T, Dim>(t), ty = Dim == 3 ? t.tile_y : 1, ey = ty + length[1] - 1;
  const std::size_t stage = std::size_t(t.batch / t.cells) * cells * ey * ring_pitch(static_cast<int>(tx), length[0], ring_vector<T>);
  const std::size_t mid = Dim == 3 ? cells * ey * tx : 0;
  return (stage + mid) * sizeof(T);
}

/// The most threads a ring block may have: the kernels' registers (a walk of 33 keeps 36 vectors).
inline int ring_max_threads(const std::array<int, 3>& length) { return length[2] == 33 || length[1] == 33 ? 256 : max_unrolled_threads; }

/// Whether the ring kernel takes `update` of these fields: vectors of the update's first column
/// on 16-byte addresses in both (true for fields whose owned lo starts the update, as mesh::Field
/// aligns it) and row strides in whole vectors.
template <class T, int Dim>
bool ring_aligned(const mesh::FieldView<const T, Dim>& in, const mesh::FieldView<T, Dim>& out, const mesh::Box<Dim>& update) {
  constexpr int v = ring_vector<T>;
  for (int d = 1; d < Dim; ++d)
    if (in.stride[d] % v != 0 || out.stride[d] % v != 0) return false;
  const T* a;
  const T* b;
  if constexpr (Dim == 2) a = &in(update.lo[0], update.lo[1]), b = &out(update.lo[0], update.lo[1]);
  else a = &in(update.lo[0], update.lo[1], update.lo[2]), b = &out(update.lo[0], update.lo[1], update.lo[2]);
  return reinterpret_cast<std::uintptr_t>(a) % 16 == 0 && reinterpret_cast<std::uintptr_t>(b) % 16 == 0;
}

/// The arguments of a ring launch (host side): axes reordered, weights converted.
template <class T, int Dim>
RingArgs<T, Dim> ring_args(const FilterTunables& t, mesh::FieldView<const T, Dim> in, mesh::FieldView<T, Dim> out, const mesh::Box<Dim>& update,
                           const std::array<std::vector<double>, Dim>& axis, const Extension<Dim>& e, T cval) {
  RingArgs<T, Dim> a{};
  a.in = in;
  a.out = out;
  a.mode = e.mode;
  a.cval = cval;
  const int field_axis[3] = {0, Dim == 3 ? 1 : -1, Dim - 1};
  for (int d = 0; d < 3; ++d) {
    const int f = field_axis[d];
    if (f >= 0)
      for (std::size_t j = 0; j < axis[f].size(); ++j) a.w[d][j] = static_cast<T>(axis[f][j]);
    a.ulo[d] = f >= 0 ? update.lo[f] : 0;
    a.un[d] = f >= 0 ? update.extent(f) : 1;
    a.glo[d] = f >= 0 ? e.lo[f] : 0;
    a.gn[d] = f >= 0 ? e.n[f] : 1;
  }
  const auto length = ring_lengths<Dim>(axis);
  a.segment = ring_segment<Dim>(t, update, length[2]);
  a.pitch = ring_pitch(ring_tile_x<T, Dim>(t), length[0], ring_vector<T>);
  a.stages = t.batch / t.cells;
  a.aligned = ring_aligned<T, Dim>(in, out, update);
  return a;
}

}  // namespace gridflow::kernels::filter
