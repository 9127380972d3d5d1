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

/// A batch of complex transforms of one on-chip length, with three-level line addressing so that
/// any pass of a multi-pass transform over a batch of long transforms is one launch. Line b is
/// (o, m, i) with b = (o * mid_lines + m) * inner_lines + i, i < inner_lines, m < mid_lines, and
/// has its element j at
///   in  + o * in_outer_distance  + m * in_mid_distance  + i * in_distance  + j * in_stride
///   out + o * out_outer_distance + m * out_mid_distance + i * out_distance + j * out_stride
/// (elements of Complex<T>). in == out is allowed when both layouts are the same.
struct OnChipShape {
  std::int64_t n = 0;      ///< power of two, 2..max_onchip_length<T>()
  std::int64_t batch = 0;  ///< lines in all
  std::int64_t inner_lines = 0;  ///< lines per middle group
  std::int64_t mid_lines = 1;    ///< middle groups per outer group; batch is a multiple of both products
  std::int64_t in_stride = 1, in_distance = 0, in_mid_distance = 0, in_outer_distance = 0;
  std::int64_t out_stride = 1, out_distance = 0, out_mid_distance = 0, out_outer_distance = 0;
  int sign = -1;  ///< exponent sign: -1 forward, +1 inverse
  /// Multi-pass twiddle fused after the transform: when > 0 (a power of two), output element k of
  /// line (o, m, i) is multiplied by exp(sign 2 pi i (i k) / twiddle_length).
  std::int64_t twiddle_length = 0;

  /// Where line b starts in the input and the output, and its inner index i.
  struct Line {
    std::int64_t in, out, inner;
  };
  GRIDFLOW_HOST_DEVICE Line line(std::int64_t b) const {
    std::int64_t r, i, o, m;
    divide(b, inner_lines, r, i);
    divide(r, mid_lines, o, m);
    return {o * in_outer_distance + m * in_mid_distance + i * in_distance,
            o * out_outer_distance + m * out_mid_distance + i * out_distance, i};
  }
  /// q = a / d, r = a % d for a >= 0, d >= 1, cheaply where it can be: a kernel computes a line's
  /// place once per load and store, and a 64-bit division costs it about a hundred instructions.
  GRIDFLOW_HOST_DEVICE static void divide(std::int64_t a, std::int64_t d, std::int64_t& q, std::int64_t& r) {
    if (a < d) {
      q = 0, r = a;
    } else if ((d & (d - 1)) == 0) {
      q = a >> log2_of_power(d), r = a & (d - 1);
    } else if ((a | d) >> 32 == 0) {
      const auto a32 = static_cast<std::uint32_t>(a), d32 = static_cast<std::uint32_t>(d);
      q = a32 / d32, r = a32 % d32;
    } else {
      q = a / d, r = a % d;
    }
  }
  GRIDFLOW_HOST_DEVICE static int log2_of_power(std::int64_t p) {
#if defined(__CUDA_ARCH__)
    return __ffsll(static_cast<long long>(p)) - 1;
#else
    return __builtin_ctzll(static_cast<unsigned long long>(p));
#endif
  }
  /// Elements between the first lines of a block on one side: the distance of the lowest level
  /// with more than one line.
  std::int64_t in_line_step() const { return inner_lines > 1 ? in_distance : mid_lines > 1 ? in_mid_distance : in_outer_distance; }
  std::int64_t out_line_step() const {
    return inner_lines > 1 ? out_distance : mid_lines > 1 ? out_mid_distance : out_outer_distance;
  }
};

/// The longest length one on-chip launch transforms (4096 at least for float and double).
template <class T>
std::int64_t max_onchip_length();

/// One launch of the onchip kernel variant `tunables` (kernel == onchip) on `stream`.
template <class T>
void launch_onchip_fft(const Complex<T>* in, Complex<T>* out, const OnChipShape& shape,
                       const FlowGraphTunables& tunables, StreamHandle stream);

}  // namespace gridflow::kernels::fft
