#pragma once
// launch_dst1_lines_onchip: the type-I sine transform of every line along one axis of a box of a
// field, in place, in ONE pass over memory (dst1.hpp does the same through fold, real FFT and
// unfold, several passes). Same definition and scaling as Dst1Plan:
//   F_k = sum_{j=1}^{N-1} x_j sin(pi j k / N),  N = box extent along the axis + 1.
// Two lines A, B at a time: their odd extensions (x_0 = x_N = 0, x_{2N-j} = -x_j) as the real and
// imaginary parts of one complex line of length 2N, transformed on chip (flow_graph_onchip.cuh):
// Z_k = -2i F^A_k + 2 F^B_k, so F^A_k = -Im Z_k / 2 and F^B_k = Re Z_k / 2. No CUDA syntax here.
#include <array>
#include <cstdint>

#include "kernels/fft/eigen_divide_point.hpp"
#include "kernels/fft/flow_graph_tunables.hpp"
#include "mesh/box.hpp"
#include "mesh/field_view.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::fft {

/// Where a box's points lie in a field's array: point (i, j, k) of the box, 0 <= i < extent[0]
/// and so on, is element first + i stride[0] + j stride[1] + k stride[2]. For a Field's view and
/// a box: first = view.offset(box.lo...), extent = box.extent(a), stride = view.stride[a].
struct BoxAddressing {
  std::int64_t first = 0;
  std::int64_t extent[3] = {1, 1, 1};
  std::int64_t stride[3] = {1, 0, 0};
};

/// Where `box` lies in the array a view windows (the box inside the view's ghosted box).
template <class T>
BoxAddressing box_addressing(const mesh::FieldView<T, 3>& view, const mesh::Box<3>& box) {
  BoxAddressing a;
  a.first = view.offset(box.lo[0], box.lo[1], box.lo[2]);
  for (int d = 0; d < 3; ++d) {
    a.extent[d] = box.extent(d);
    a.stride[d] = view.stride[d];
  }
  return a;
}

/// The longest transform length the fused kernel takes: its length-2N complex transform must fit
/// on chip (max_onchip_length, 4096).
inline constexpr std::int64_t dst1_onchip_max_length = 2048;

/// Whether the fused kernel takes lines of transform length n (points + 1): a power of two,
/// 2..dst1_onchip_max_length.
inline bool dst1_onchip_supports(std::int64_t n) { return n >= 2 && n <= dst1_onchip_max_length && (n & (n - 1)) == 0; }

/// Every line of `box` along `axis` (0, 1, 2) of the device array `field` = its DST-I. Tunables:
/// radix, twiddle_table as for launch_onchip_fft; lines_per_block counts line pairs (0: chosen).
/// Asynchronous on `stream`. Throws Error for an unsupported length, an axis outside 0..2 or
/// tunables that cannot launch.
template <class T>
void launch_dst1_lines_onchip(T* field, const BoxAddressing& box, int axis, const FlowGraphTunables& tunables,
                              StreamHandle stream);

/// Everything launch_dst1_lines_onchip does before its launch, for a box of this shape: the checks,
/// loading the kernel, its shared-memory opt-in and the twiddle table, which the first launch would
/// otherwise pay for (about 2 ms per kernel on an H100, inside a timed solve). Blocking.
template <class T>
void prepare_dst1_lines_onchip(const BoxAddressing& box, int axis, const FlowGraphTunables& tunables);

/// The middle of a one-rank spectral solve in one pass over memory: every line of `box` along
/// `axis` = DST-I(divide(DST-I(line))), where divide is divide_by_eigenvalues' operation at
/// global point lo + (i, j, k) for box point (i, j, k). The same expressions on the same values
/// as launch_dst1_lines_onchip, divide_by_eigenvalues and launch_dst1_lines_onchip in turn, so
/// the same bits. Asynchronous on `stream`; throws as launch_dst1_lines_onchip.
template <class T>
void launch_dst1_divide_dst1_onchip(T* field, const BoxAddressing& box, const std::array<std::int64_t, 3>& lo, int axis,
                                    const EigenTables<T>& tables, T scale, const FlowGraphTunables& tunables,
                                    StreamHandle stream);

/// prepare_dst1_lines_onchip for launch_dst1_divide_dst1_onchip's kernel.
template <class T>
void prepare_dst1_divide_dst1_onchip(const BoxAddressing& box, int axis, const FlowGraphTunables& tunables);

}  // namespace gridflow::kernels::fft
