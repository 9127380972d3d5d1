#pragma once
// Launchers of the CUDA filter kernels; no CUDA syntax, so plain C++ (correlate.cpp) calls them.
// Every launcher is asynchronous on `stream` and checks its launch. Views are device memory.
#include <array>
#include <cstddef>
#include <vector>

#include "kernels/filter/correlate_point.hpp"
#include "kernels/filter/filter_tunables.hpp"
#include "mesh/box.hpp"
#include "mesh/field_view.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::filter {

/// Direct variant, one axis pass: out(p) = axis_pass_point(in, p, axis, weights) for p in `box`;
/// `weights` (`length` values) in device memory.
template <class T, int Dim>
void launch_axis_pass_cuda(mesh::FieldView<const T, Dim> in, mesh::FieldView<T, Dim> out, const mesh::Box<Dim>& box, int axis,
                           const T* weights, int length, const Extension<Dim>& e, T cval, StreamHandle stream);

/// Direct variant, full weights: out(p) = full_point(in, p, weights) for p in `box`; `weights`
/// (product of `shape` values, x fastest) in device memory.
template <class T, int Dim>
void launch_full_cuda(mesh::FieldView<const T, Dim> in, mesh::FieldView<T, Dim> out, const mesh::Box<Dim>& box, const T* weights,
                      const std::array<int, Dim>& shape, const Extension<Dim>& e, T cval, StreamHandle stream);

/// Outputs per block of a tiled launch on `update` along each axis: the tunables' tile clamped to
/// the box, x widened by what y and z lost to the clamp (z is 1 in 2D).
template <int Dim>
std::array<int, 3> tile_extents(const FilterTunables& t, const mesh::Box<Dim>& update) {
  const long long wanted[3] = {t.tile_x, t.tile_y, Dim == 3 ? t.tile_z : 1};
  const long long extent[3] = {update.extent(0), update.extent(1), Dim == 3 ? update.extent(Dim - 1) : 1};
  std::array<int, 3> tile{1, 1, 1};
  long long lost = 1;
  for (int d = 1; d < 3; ++d) {
    tile[d] = static_cast<int>(wanted[d] < extent[d] ? wanted[d] : extent[d]);
    lost *= wanted[d] / tile[d];
  }
  const long long x = wanted[0] * lost;
  tile[0] = static_cast<int>(x < extent[0] ? x : extent[0]);
  return tile;
}

/// Shared memory of a tiled block with outputs `tile` and weights of `length` per axis (1 past
/// the filter's axes): the input tile with its halo, and the x pass's rows.
inline std::size_t tiled_shared_bytes(const std::array<int, 3>& tile, const std::array<int, 3>& length, std::size_t value_bytes) {
  const std::size_t e1 = tile[1] + length[1] - 1, e2 = tile[2] + length[2] - 1;
  return (static_cast<std::size_t>(tile[0] + length[0] - 1) + tile[0]) * e1 * e2 * value_bytes;
}

/// Shared memory one block may use on the current device (with the opt-in beyond 48 KiB).
std::size_t device_shared_bytes_per_block();

/// Tiled variant: every axis pass of the separable weights `axis` (x, y(, z) in that order, each
/// at most max_axis_length long) in one launch, shared-memory tiles of the tunables' extents
/// plus the reach; out on `update` equals the host reference's passes bitwise (same products,
/// same order, intermediates rounded to T). Throws Error when a tile with its halo does not fit
/// in the device's shared memory per block.
template <class T, int Dim>
void launch_tiled_cuda(const FilterTunables& tunables, mesh::FieldView<const T, Dim> in, mesh::FieldView<T, Dim> out,
                       const mesh::Box<Dim>& update, const std::array<std::vector<double>, Dim>& axis, const Extension<Dim>& e,
                       T cval, StreamHandle stream);

}  // namespace gridflow::kernels::filter
