#pragma once
// The contiguous-lines on-chip FFT (flow_graph_lines_cuda.cuh): batches of complex transforms of
// length 2..4096 whose lines are contiguous on both sides (element j of line b at b * distance + j),
// the layout of every one-pass batched transform. It is the onchip kernel with everything that
// layout does not need taken out, for the DRAM-bound case where cuFFT is fastest: the line
// arrangement, strides and exchange addresses are compile-time (32-bit, one index computation per
// butterfly, immediate offsets per value), the exchanges go through one shared plane or two
// (tunable), the next pass's twiddle roots are read before the exchange's barriers, and the
// `staged` form keeps a persistent grid whose blocks copy their next lines into shared memory with
// cp.async while they transform the current ones. launch_onchip_fft runs it for tunables with
// planes != 0 when onchip_lines_take(shape); other shapes run the general kernel.
//
// This header has no CUDA syntax: the sizes are shared with the tunables' search space.
#include <cstddef>
#include <cstdint>

#include "kernels/fft/complex.hpp"
#include "kernels/fft/flow_graph_tunables.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::fft {

struct OnChipShape;

namespace onchip {

/// The largest block of the contiguous-lines kernel at length n and pass radix `radix`: 256
/// threads (so that ptxas may give a thread up to 255 registers and radix-16 values never spill),
/// or one whole line where a line has more threads.
GRIDFLOW_HOST_DEVICE constexpr int lines_max_threads(int n, int radix) {
  const int per_line = n / (radix > n / 1024 ? radix : n / 1024);
  return per_line > 256 ? per_line : 256;
}

/// Elements of T between the starts of neighbouring lines in an exchange plane: one word of
/// padding per 128 bytes (so that a pass's strided writes spread over the banks), one per line
/// for lines shorter than that.
template <class T>
GRIDFLOW_HOST_DEVICE constexpr int lines_pitch(int n) {
  constexpr int period = 128 / static_cast<int>(sizeof(T));
  return n >= period ? n + n / period : n + 1;
}

/// Dynamic shared memory of a block of the contiguous-lines kernel: `planes` exchange planes and,
/// when staged, a copy of the block's next lines.
template <class T>
GRIDFLOW_HOST_DEVICE constexpr std::size_t lines_shared_bytes(int lines, int n, int planes, bool staged) {
  const std::size_t exchange = static_cast<std::size_t>(planes) * lines * lines_pitch<T>(n) * sizeof(T);
  const std::size_t aligned = (exchange + 15) / 16 * 16;
  return aligned + (staged ? static_cast<std::size_t>(lines) * n * 2 * sizeof(T) : 0);
}

}  // namespace onchip

/// Whether the contiguous-lines kernel takes `shape`: unit strides, every line at one distance (at
/// least n) from the previous on each side, no fused twiddle.
bool onchip_lines_take(const OnChipShape& shape);

/// One launch of the contiguous-lines kernel (tunables.planes 1 or 2); `shape` must satisfy
/// onchip_lines_take and the checks of launch_onchip_fft. CUDA builds only.
template <class T>
void launch_onchip_lines_fft(const Complex<T>* in, Complex<T>* out, const OnChipShape& shape,
                             const FlowGraphTunables& tunables, StreamHandle stream);

}  // namespace gridflow::kernels::fft
