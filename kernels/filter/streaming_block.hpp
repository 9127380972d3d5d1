#pragma once
// The streaming variant's geometry (host and device): what one launch passes its blocks, the
// shared memory a block needs, and which filters it takes. The kernel is streaming_cuda.cu.
//
// Axes here: 0 = x, 1 = the cross axis y (3D; a degenerate axis of extent 1 in 2D), 2 = the walk
// axis (the field's last: y in 2D, z in 3D). A block owns tile[0] x tile[1] columns and walks
// tile[2] outputs along axis 2 in batches of `batch` input rows (planes). Shared memory, in T:
//   input   2 x batch x ey x pitch_in      two batches: one being filtered, one being copied in
//   x pass  batch x ey x pitch_mid         3D only: the x pass of the batch, for the y pass
//   ring    2 x slots x tile[1] x pitch_mid the last pass's input rows, slot i mod slots written
//                                          twice (at s and s + slots), so any window of
//                                          length[2] - 1 + batch rows is contiguous
// with ey = tile[1] + length[1] - 1 and slots = length[2] - 1 + batch.
#include <array>
#include <cstddef>
#include <vector>

#include "kernels/filter/correlate_point.hpp"
#include "kernels/filter/filter_tunables.hpp"
#include "kernels/filter/filter_weights.hpp"
#include "kernels/filter/tiled_block.hpp"
#include "mesh/box.hpp"
#include "mesh/check.hpp"
#include "mesh/field_view.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::filter {

/// Values per 16-byte vector: the x pass's outputs per thread and the row pitches' multiple.
template <class T>
inline constexpr int streaming_vector = static_cast<int>(16 / sizeof(T));

/// Everything a streaming launch passes its blocks (by value: the kernel's parameters, the
/// weights in the constant bank).
template <class T, int Dim>
struct StreamingArgs {
  mesh::FieldView<const T, Dim> in;
  mesh::FieldView<T, Dim> out;
  long long ulo[3], un[3];  ///< the update box, axes x, cross y, walk
  long long glo[3], gn[3];  ///< the global array, same axes
  int tile[3];              ///< outputs per block per axis
  long long blocks[3];
  int batch;
  BoundaryMode mode;
  T cval;
  AxisWeights<T> w;  ///< weights per axis, same axes
};

/// Rows and pitches of a block's shared memory (in values of T), as in the picture above.
struct StreamingLayout {
  int ey, pitch_in, pitch_mid, slots;
  std::size_t input, mid, ring;  ///< values of each region
  GRIDFLOW_HOST_DEVICE StreamingLayout(int tile0, int tile1, int length0, int length1, int length2, int batch, int vector, bool three_d) {
    ey = tile1 + length1 - 1;
    pitch_mid = (tile0 + vector - 1) / vector * vector;
    pitch_in = (pitch_mid + length0 - 1 + vector - 1) / vector * vector;
    slots = length2 - 1 + batch;
    input = std::size_t(2) * batch * ey * pitch_in;
    mid = three_d ? std::size_t(1) * batch * ey * pitch_mid : 0;
    ring = std::size_t(2) * slots * tile1 * pitch_mid;
  }
  GRIDFLOW_HOST_DEVICE std::size_t bytes(std::size_t value_bytes) const { return (input + mid + ring) * value_bytes; }
};

/// Outputs per block of a streaming launch on `update` (axes x, cross y, walk): the tunables'
/// tile_x, then tile_y and tile_z (3D) or tile_y along the walk (2D), each clamped to the box.
template <int Dim>
std::array<int, 3> streaming_tile(const FilterTunables& t, const mesh::Box<Dim>& update) {
  const long long wanted[3] = {t.tile_x, Dim == 3 ? t.tile_y : 1, Dim == 3 ? t.tile_z : t.tile_y};
  const long long extent[3] = {update.extent(0), Dim == 3 ? update.extent(1) : 1, update.extent(Dim - 1)};
  std::array<int, 3> tile{};
  for (int d = 0; d < 3; ++d) tile[d] = static_cast<int>(wanted[d] < extent[d] ? wanted[d] : extent[d]);
  return tile;
}

/// The weights' lengths on the streaming axes (x, cross y, walk).
template <int Dim>
std::array<int, 3> streaming_lengths(const std::array<std::vector<double>, Dim>& axis) {
  return {static_cast<int>(axis[0].size()), Dim == 3 ? static_cast<int>(axis[1].size()) : 1, static_cast<int>(axis[Dim - 1].size())};
}

/// Whether the streaming kernel takes separable weights `axis`: the walk axis must be filtered
/// (a filter along x alone, a 1D signal, is the tiled variant's).
template <int Dim>
bool streaming_applies(const std::array<std::vector<double>, Dim>& axis) {
  return !(axis[Dim - 1].size() == 1 && axis[Dim - 1][0] == 1.0);
}

template <class T, int Dim>
std::size_t streaming_shared_bytes(const FilterTunables& t, const mesh::Box<Dim>& update, const std::array<std::vector<double>, Dim>& axis) {
  const auto tile = streaming_tile<Dim>(t, update);
  const auto length = streaming_lengths<Dim>(axis);
  return StreamingLayout(tile[0], tile[1], length[0], length[1], length[2], t.batch, streaming_vector<T>, Dim == 3).bytes(sizeof(T));
}

/// The arguments of a streaming launch (host side): axes reordered, weights converted, blocks counted.
template <class T, int Dim>
StreamingArgs<T, Dim> streaming_args(const FilterTunables& t, mesh::FieldView<const T, Dim> in, mesh::FieldView<T, Dim> out,
                                     const mesh::Box<Dim>& update, const std::array<std::vector<double>, Dim>& axis, const Extension<Dim>& e,
                                     T cval) {
  StreamingArgs<T, Dim> a{};
  a.in = in;
  a.out = out;
  a.mode = e.mode;
  a.cval = cval;
  a.batch = t.batch;
  const std::vector<double> one{1.0};
  const int field_axis[3] = {0, Dim == 3 ? 1 : -1, Dim - 1};
  const std::array<int, 3> tile = streaming_tile<Dim>(t, update);
  for (int d = 0; d < 3; ++d) {
    const int f = field_axis[d];
    const std::vector<double>& w = f >= 0 ? axis[f] : one;
    GRIDFLOW_REQUIRE(!w.empty() && static_cast<int>(w.size()) <= max_axis_length, "filter weights longer than max_axis_length");
    a.w.length[d] = static_cast<int>(w.size());
    for (std::size_t j = 0; j < w.size(); ++j) a.w.w[d][j] = static_cast<T>(w[j]);
    a.ulo[d] = f >= 0 ? update.lo[f] : 0;
    a.un[d] = f >= 0 ? update.extent(f) : 1;
    a.glo[d] = f >= 0 ? e.lo[f] : 0;
    a.gn[d] = f >= 0 ? e.n[f] : 1;
    a.tile[d] = tile[d];
    a.blocks[d] = (a.un[d] + tile[d] - 1) / tile[d];
  }
  return a;
}

}  // namespace gridflow::kernels::filter
