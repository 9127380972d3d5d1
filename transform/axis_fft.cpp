#include "transform/axis_fft.hpp"

#include <algorithm>
#include <string>

#include "mesh/check.hpp"

namespace gridflow::transform {

using kernels::fft::FftKind;

namespace {

/// count elements of `bytes` bytes (one real or one complex value) from `from`, `from_stride`
/// elements apart, to `to`, `to_stride` apart; typed so that each is one move, not a memcpy call.
template <class T>
void copy_elements(const char* from, mesh::Index from_stride, char* to, mesh::Index to_stride, mesh::Index count,
                   std::size_t bytes) {
  auto copy = [&](auto element) {
    using E = decltype(element);
    const auto* f = reinterpret_cast<const E*>(from);
    auto* t = reinterpret_cast<E*>(to);
    for (mesh::Index j = 0; j < count; ++j) t[j * to_stride] = f[j * from_stride];
  };
  if (bytes == sizeof(T)) copy(T{});
  else copy(kernels::fft::Complex<T>{});
}

}  // namespace

template <class T>
AxisFft<T>::AxisFft(FftKind kind, kernels::fft::FftDirection direction, const AxisFftShape& shape,
                    mesh::MemorySpace space, StreamHandle stream, const kernels::fft::FftTunables& tunables,
                    bool line_by_line)
    : m_shape(shape), m_line_by_line(line_by_line) {
  const int a = shape.axis;
  GRIDFLOW_REQUIRE(a >= 0 && a < 3, "AxisFft: axis " + std::to_string(a) + " is not 0, 1 or 2");
  GRIDFLOW_REQUIRE(!line_by_line || space == mesh::MemorySpace::host, "AxisFft: line by line needs host memory");
  m_in_bytes = kind == FftKind::r2c ? sizeof(T) : 2 * sizeof(T);
  m_out_bytes = kind == FftKind::c2r ? sizeof(T) : 2 * sizeof(T);
  kernels::fft::FftLayout layout;
  layout.n = shape.length;
  layout.kind = kind;
  layout.direction = kind == FftKind::c2c ? direction
                     : kind == FftKind::r2c ? kernels::fft::FftDirection::forward
                                             : kernels::fft::FftDirection::inverse;
  m_in_length = layout.in_line_elements();
  m_out_length = layout.out_line_elements();
  // The other two axes: lines are batched along the one whose lines lie closer in memory.
  const int b = (a + 1) % 3, c = (a + 2) % 3;
  const bool b_first = shape.lines[c] <= 1 || (shape.lines[b] > 1 && shape.in_stride[b] <= shape.in_stride[c]);
  m_batch_axis = b_first ? b : c;
  m_loop_axis = b_first ? c : b;
  if (line_by_line) {
    m_line_in = mesh::Buffer(static_cast<std::size_t>(m_in_length) * m_in_bytes, space);
    m_line_out = mesh::Buffer(static_cast<std::size_t>(m_out_length) * m_out_bytes, space);
  } else {
    GRIDFLOW_REQUIRE(shape.in_stride[a] == shape.out_stride[a],
                     "AxisFft: strided lines need the same stride along the axis in input and output");
    layout.batch = shape.lines[m_batch_axis];
    layout.stride = shape.in_stride[a];
    // A distance of 0 would mean "contiguous" to the plan; with one line it is never used.
    layout.in_distance = std::max<std::int64_t>(1, shape.in_stride[m_batch_axis]);
    layout.out_distance = std::max<std::int64_t>(1, shape.out_stride[m_batch_axis]);
  }
  m_plan = kernels::fft::make_fft_plan<T>(layout, space, stream, tunables);
}

template <class T>
AxisFft<T>::~AxisFft() = default;

template <class T>
void AxisFft<T>::execute(const void* in, void* out) {
  if (m_line_by_line) execute_line_by_line(static_cast<const char*>(in), static_cast<char*>(out));
  else execute_strided(static_cast<const char*>(in), static_cast<char*>(out));
}

template <class T>
void AxisFft<T>::execute_strided(const char* in, char* out) {
  const auto& s = m_shape;
  for (mesh::Index l = 0; l < s.lines[m_loop_axis]; ++l)
    m_plan->execute(in + l * s.in_stride[m_loop_axis] * static_cast<mesh::Index>(m_in_bytes),
                    out + l * s.out_stride[m_loop_axis] * static_cast<mesh::Index>(m_out_bytes));
}

template <class T>
void AxisFft<T>::execute_line_by_line(const char* in, char* out) {
  const auto& s = m_shape;
  const int a = s.axis;
  auto* line_in = static_cast<char*>(m_line_in.data());
  auto* line_out = static_cast<char*>(m_line_out.data());
  const auto in_bytes = static_cast<mesh::Index>(m_in_bytes), out_bytes = static_cast<mesh::Index>(m_out_bytes);
  for (mesh::Index l = 0; l < s.lines[m_loop_axis]; ++l) {
    for (mesh::Index b = 0; b < s.lines[m_batch_axis]; ++b) {
      const char* from = in + (l * s.in_stride[m_loop_axis] + b * s.in_stride[m_batch_axis]) * in_bytes;
      char* to = out + (l * s.out_stride[m_loop_axis] + b * s.out_stride[m_batch_axis]) * out_bytes;
      copy_elements<T>(from, s.in_stride[a], line_in, 1, m_in_length, m_in_bytes);
      m_plan->execute(line_in, line_out);
      copy_elements<T>(line_out, 1, to, s.out_stride[a], m_out_length, m_out_bytes);
    }
  }
}

template class AxisFft<float>;
template class AxisFft<double>;

}  // namespace gridflow::transform
