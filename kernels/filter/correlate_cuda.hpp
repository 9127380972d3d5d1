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

/// Streaming variant (streaming_cuda.cu): every axis pass of the separable weights `axis` in one
/// launch, blocks walking the last axis (streaming_applies(axis) must hold); bitwise equal to the
/// host reference like the tiled variant. Throws Error when a block's shared memory
/// (streaming_shared_bytes) exceeds the device's.
template <class T, int Dim>
void launch_streaming_cuda(const FilterTunables& tunables, mesh::FieldView<const T, Dim> in, mesh::FieldView<T, Dim> out,
                           const mesh::Box<Dim>& update, const std::array<std::vector<double>, Dim>& axis, const Extension<Dim>& e,
                           T cval, StreamHandle stream);

/// Ring variant (ring_cuda.cuh): every axis pass of the separable weights `axis` in one launch,
/// blocks walking the last axis with the walk pass's inputs in registers; ring_lengths(axis) must
/// name a compiled kernel. Bitwise equal to the host reference like the tiled variant. Throws
/// Error when a block's shared memory (ring_shared_bytes) or threads exceed what the device or
/// the kernel allow.
template <class T, int Dim>
void launch_ring_cuda(const FilterTunables& tunables, mesh::FieldView<const T, Dim> in, mesh::FieldView<T, Dim> out, const mesh::Box<Dim>& update,
                      const std::array<std::vector<double>, Dim>& axis, const Extension<Dim>& e, T cval, StreamHandle stream);

/// Panel variant (panel_cuda.cu), 2D: every axis pass of the separable weights `axis` in one
/// launch, blocks walking y with the intermediate rows in a shared ring and the outputs
/// accumulated in registers; panel_length(axis) must name a compiled kernel. Bitwise equal to
/// the host reference like the tiled variant. Throws Error when a block's shared memory
/// (panel_shared_bytes) exceeds the device's.
template <class T>
void launch_panel_cuda(const FilterTunables& tunables, mesh::FieldView<const T, 2> in, mesh::FieldView<T, 2> out, const mesh::Box<2>& update,
                       const std::array<std::vector<double>, 2>& axis, const Extension<2>& e, T cval, StreamHandle stream);

/// Warp variant (warp_cuda.cu), 2D: the x pass of the weights `axis` (x alone), a warp per piece
/// of a row; warp_length(axis) must name a compiled kernel.
/// Bitwise equal to the host reference like the tiled variant. Throws Error when a block's shared
/// memory (warp_shared_bytes) exceeds the device's.
template <class T>
void launch_warp_cuda(const FilterTunables& tunables, mesh::FieldView<const T, 2> in, mesh::FieldView<T, 2> out, const mesh::Box<2>& update,
                      const std::array<std::vector<double>, 2>& axis, const Extension<2>& e, T cval, StreamHandle stream);

}  // namespace gridflow::kernels::filter
