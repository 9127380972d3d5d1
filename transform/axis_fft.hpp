#pragma once
// AxisFft<T>: the batched 1D FFT of every line along one axis of a box of values, through one
// kernels::fft::FftPlan: the step the distributed transforms repeat per axis.
//
// The values are addressed by element strides (in elements of the buffer's type: T for real,
// Complex<T> for complex buffers), so the same object serves 2D boxes (extent[2] = 1) and 3D
// ones, fields with ghosts and contiguous buffers. Two ways to run the lines:
//   strided        one plan over the lines in place in memory, one execution per plane of the
//                  third axis: no copies; host or device.
//   line_by_line   (host) each line copied to a contiguous buffer, transformed by a plan of one
//                  line, copied back: a line's result is then the same bits whatever the box,
//                  strides and batch around it (FFTW may pick other codelets for other strides
//                  or batch counts), so distributed results can be bitwise independent of the
//                  rank count.
#include <array>
#include <cstdint>
#include <memory>

#include "kernels/fft/fft_plan.hpp"
#include "mesh/box.hpp"
#include "mesh/device.hpp"

namespace gridflow::transform {

struct AxisFftShape {
  int axis = 0;                        ///< the transformed axis, 0..2
  std::int64_t length = 1;             ///< transform length (of the real lines for r2c / c2r)
  std::array<mesh::Index, 3> lines{};  ///< extents of the box along the other axes (the axis' own entry ignored)
  std::array<mesh::Index, 3> in_stride{}, out_stride{};  ///< element strides per axis of input and output
};

template <class T>
class AxisFft {
 public:
  /// Plans the lines. kind r2c is forward and c2r inverse; c2c takes `direction`. The strided way
  /// needs in_stride[axis] == out_stride[axis]; line_by_line needs host memory. Throws Error
  /// otherwise, or when the backend cannot plan the length.
  AxisFft(kernels::fft::FftKind kind, kernels::fft::FftDirection direction, const AxisFftShape& shape,
          mesh::MemorySpace space, StreamHandle stream, const kernels::fft::FftTunables& tunables, bool line_by_line);
  ~AxisFft();

  /// Transforms every line: `in` and `out` point at the box's lo corner of each buffer (they may
  /// be the same for c2c). Host: blocks. Device: asynchronous on the stream.
  void execute(const void* in, void* out);

 private:
  void execute_strided(const char* in, char* out);
  void execute_line_by_line(const char* in, char* out);

  AxisFftShape m_shape;
  int m_batch_axis = 0, m_loop_axis = 0;  // the strided way: lines batched along one, executions along the other
  std::size_t m_in_bytes = 0, m_out_bytes = 0;  // bytes of one input / output element
  std::int64_t m_in_length = 0, m_out_length = 0;  // elements of one input / output line
  bool m_line_by_line = false;
  std::unique_ptr<kernels::fft::FftPlan<T>> m_plan;
  mesh::Buffer m_line_in, m_line_out;  // line_by_line: one contiguous line each
};

extern template class AxisFft<float>;
extern template class AxisFft<double>;

}  // namespace gridflow::transform
