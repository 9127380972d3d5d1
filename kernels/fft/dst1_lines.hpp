#pragma once
// Dst1Lines: where the lines of a batched DST-I live, in the field and in the real-FFT buffers.
//
// A line runs along the transform axis through the box; its points are j = 1..N-1 (the DST's
// indices, so point j sits at box.lo[axis] + j - 1). Lines are numbered with the faster of the two
// other axes fastest. The FFT buffers hold `batch` lines at a time, b = 0..batch-1:
//   contiguous (axis 0): real[b N + j], spectrum[b (N/2+1) + k]; the field's lines are contiguous
//                        too, so neighbouring threads take neighbouring j on both sides;
//   interleaved (others): real[j batch + b], spectrum[k batch + b]; neighbouring lines are
//                        neighbouring x in the field, so threads taking neighbouring b coalesce on
//                        both sides, and one thread can walk a whole line (the unfold's recurrence).
#include <cstdint>

#include "mesh/host_device.hpp"

namespace gridflow::kernels::fft {

struct Dst1Lines {
  std::int64_t n = 0;         ///< FFT length N: points per line + 1
  std::int64_t batch = 0;     ///< lines per FFT execution
  bool interleaved = false;   ///< buffer layout (above)
  std::int64_t first = 0;     ///< field offset of the box's low corner
  std::int64_t extent_p = 1;  ///< box points along the faster other axis
  std::int64_t stride_p = 0, stride_q = 0, stride_axis = 0;  ///< field strides: faster other, slower other, transform axis

  /// Field offset of point j (1..N-1) of line `line`.
  GRIDFLOW_HOST_DEVICE std::int64_t field_offset(std::int64_t line, std::int64_t j) const {
    return first + (line % extent_p) * stride_p + (line / extent_p) * stride_q + (j - 1) * stride_axis;
  }
  /// Offset of y_j (j = 0..N-1) of batch line b in the real buffer.
  GRIDFLOW_HOST_DEVICE std::int64_t real_offset(std::int64_t b, std::int64_t j) const {
    return interleaved ? j * batch + b : b * n + j;
  }
  /// Offset of Y_k (k = 0..N/2) of batch line b in the spectrum buffer.
  GRIDFLOW_HOST_DEVICE std::int64_t spectrum_offset(std::int64_t b, std::int64_t k) const {
    return interleaved ? k * batch + b : b * (n / 2 + 1) + k;
  }
};

}  // namespace gridflow::kernels::fft
