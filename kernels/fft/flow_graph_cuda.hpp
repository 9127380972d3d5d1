#pragma once
// The CUDA kernels of the flow_graph backend, for the device FftPlan (flow_graph_plan_cuda.cu),
// which composes them into transforms of any power-of-two length up to 2^24 and into r2c / c2r,
// and for fused kernels built on the same on-chip transform (the DST-I lines of the spectral
// Poisson solver). Defined in CUDA builds only.
#include <cstdint>

#include "kernels/fft/complex.hpp"
#include "kernels/fft/flow_graph_tunables.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::fft {

/// A batch of complex transforms of one on-chip length, with two-level line addressing so that a
/// four-step pass over a batch of long transforms is one launch. Line (o, i), o < batch /
/// inner_lines, i < inner_lines, has its element j at
///   in  + o * in_outer_distance  + i * in_distance  + j * in_stride
///   out + o * out_outer_distance + i * out_distance + j * out_stride
/// (elements of Complex<T>). in == out is allowed when both layouts are the same.
struct OnChipShape {
  std::int64_t n = 0;      ///< power of two, 2..max_onchip_length<T>()
  std::int64_t batch = 0;  ///< lines in all
  std::int64_t inner_lines = 0;  ///< lines per outer group; batch is a multiple of it
  std::int64_t in_stride = 1, in_distance = 0, in_outer_distance = 0;
  std::int64_t out_stride = 1, out_distance = 0, out_outer_distance = 0;
  int sign = -1;  ///< exponent sign: -1 forward, +1 inverse
  /// Four-step twiddle fused after the transform: when > 0, output element k of line (o, i) is
  /// multiplied by exp(sign 2 pi i (i k) / twiddle_length).
  std::int64_t twiddle_length = 0;
};

/// The longest length one on-chip launch transforms (4096 at least for float and double).
template <class T>
std::int64_t max_onchip_length();

/// One launch of the onchip kernel variant `tunables` (kernel == onchip) on `stream`.
template <class T>
void launch_onchip_fft(const Complex<T>* in, Complex<T>* out, const OnChipShape& shape,
                       const FlowGraphTunables& tunables, StreamHandle stream);

}  // namespace gridflow::kernels::fft
