// Dst1Plan: planning, the host fold and unfold (the oracle, on the Kokkos host space), and the
// dispatch to the CUDA ones.
#include "kernels/fft/dst1.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "kernels/core/copy_from_host.hpp"
#include "kernels/core/for_each_host.hpp"
#include "kernels/core/space_dispatch.hpp"
#include "kernels/fft/dst1_cuda.hpp"
#include "kernels/fft/dst1_onchip_cuda.hpp"
#include "kernels/fft/dst1_point.hpp"
#include "kernels/fft/eigen_divide.hpp"
#include "mesh/check.hpp"

namespace gridflow::kernels::fft {

namespace {

template <class T>
void fold_host(const Dst1Lines& g, const T* field, const T* sines, T* real, std::int64_t first_line, std::int64_t count) {
  core::for_each_index_host("fft::dst1_fold::host", count, [&](const std::int64_t b) {
    const std::int64_t line = first_line + b;
    real[g.real_offset(b, 0)] = T(0);
    for (std::int64_t j = 1; j < g.n; ++j)
      real[g.real_offset(b, j)] =
          dst1_fold_point(field[g.field_offset(line, j)], field[g.field_offset(line, g.n - j)], sines[j]);
  });
}

template <class T>
void unfold_host(const Dst1Lines& g, const Complex<T>* spectrum, T* field, std::int64_t first_line, std::int64_t count) {
  core::for_each_index_host("fft::dst1_unfold::host", count, [&](const std::int64_t b) {
    const std::int64_t line = first_line + b;
    T odd = T(0);
    for (std::int64_t k = 0; 2 * k <= g.n - 1; ++k) {
      const Complex<T> y = spectrum[g.spectrum_offset(b, k)];
      if (k >= 1) field[g.field_offset(line, 2 * k)] = dst1_even_point(y);
      if (2 * k + 1 <= g.n - 1) {
        odd += dst1_odd_increment_point(y, k);
        field[g.field_offset(line, 2 * k + 1)] = odd;
      }
    }
  });
}

// The other two axes of `axis`, faster first.
std::array<int, 2> other_axes(int axis) {
  return axis == 0 ? std::array<int, 2>{1, 2} : axis == 1 ? std::array<int, 2>{0, 2} : std::array<int, 2>{0, 1};
}

/// `box` as in a field without ghosts, for preparing a fused kernel: only the extents choose it.
BoxAddressing kernel_shape(const mesh::Box<3>& box) {
  BoxAddressing shape;
  shape.extent[0] = box.extent(0), shape.extent[1] = box.extent(1), shape.extent[2] = box.extent(2);
  shape.stride[1] = shape.extent[0], shape.stride[2] = shape.extent[0] * shape.extent[1];
  return shape;
}

}  // namespace

template <class T>
Dst1Plan<T>::Dst1Plan(const mesh::Box<3>& box, int axis, mesh::MemorySpace space, StreamHandle stream,
                      std::int64_t max_batch_elements, std::optional<FftTunables> fft)
    : m_box(box), m_axis(axis), m_space(space), m_stream(stream) {
  GRIDFLOW_REQUIRE(!box.empty(), "a DST-I plan needs a non-empty box");
  GRIDFLOW_REQUIRE(axis >= 0 && axis < 3, "DST-I axis " + std::to_string(axis) + " is not 0, 1 or 2");
  GRIDFLOW_REQUIRE(max_batch_elements >= 0, "max_batch_elements must be >= 0");
  if (max_batch_elements == 0)
    max_batch_elements = space == mesh::MemorySpace::host ? host_max_batch_elements : device_max_batch_elements;
  const std::int64_t n = box.extent(axis) + 1;
  m_lines = box.size() / box.extent(axis);
  m_layout.n = n;
  const bool flow_graph_asked = !fft || fft->backend == FftBackend::flow_graph;
  if (space == mesh::MemorySpace::device && flow_graph_asked && dst1_onchip_supports(n)) {
    m_tunables = fft ? *fft : FftTunables{FftBackend::flow_graph, ""};
    // Radix 16 with the twiddle table measured fastest on every axis of 511^3 (H100).
    m_fused = m_tunables.variant.empty() ? FlowGraphTunables{FlowGraphTunables::Kernel::onchip, 16, 0, true}
                                         : FlowGraphTunables::parse(m_tunables.variant);
    GRIDFLOW_REQUIRE(m_fused->kernel == FlowGraphTunables::Kernel::onchip,
                     "DST-I on the device: variant '" + m_tunables.variant + "' is not an onchip variant");
    m_layout.batch = m_lines;
    core::run_on_space(
        "fft::dst1", space, stream, [] {}, [&](auto) { prepare_dst1_lines_onchip<T>(kernel_shape(box), axis, *m_fused); });
    return;
  }
  // As many lines as fit, spread evenly over the batches so the last one is not nearly empty.
  const std::int64_t fit = std::max<std::int64_t>(1, max_batch_elements / n);
  const std::int64_t batches = (m_lines + fit - 1) / fit;
  m_layout.batch = (m_lines + batches - 1) / batches;
  m_layout.interleaved = axis != 0;

  // The buffers' layout (dst1_lines.hpp) as an FFT layout: interleaved lines are one element
  // apart and step by the batch.
  FftLayout lines;
  lines.n = n;
  lines.batch = m_layout.batch;
  lines.kind = FftKind::r2c;
  lines.stride = m_layout.interleaved ? m_layout.batch : 1;
  lines.in_distance = lines.out_distance = m_layout.interleaved ? 1 : 0;
  std::vector<T> sines(static_cast<std::size_t>(n));
  for (std::int64_t j = 0; j < n; ++j) sines[j] = static_cast<T>(std::sin(M_PI * static_cast<double>(j) / static_cast<double>(n)));
  m_sines = mesh::Buffer(sines.size() * sizeof(T), space);
  m_real = mesh::Buffer(static_cast<std::size_t>(lines.in_elements()) * sizeof(T), space);
  m_spectrum = mesh::Buffer(static_cast<std::size_t>(lines.out_elements()) * sizeof(Complex<T>), space);
  core::copy_from_host(m_sines.data(), space, sines.data(), m_sines.bytes(), stream);
  auto* real = static_cast<T*>(m_real.data());
  // A short last batch leaves lines of the buffer unwritten: keep them finite.
  core::run_on_space(
      "fft::dst1", space, stream, [&] { std::fill(real, real + lines.in_elements(), T(0)); },
      [&](auto) { mesh::fill_device_bytes(real, 0, m_real.bytes(), stream); });
  m_tunables = fft ? *fft : default_fft_tunables(space);
  m_fft = make_fft_plan<T>(lines, space, stream, m_tunables);
}

template <class T>
Dst1Plan<T>::~Dst1Plan() = default;
template <class T>
Dst1Plan<T>::Dst1Plan(Dst1Plan&&) noexcept = default;
template <class T>
Dst1Plan<T>& Dst1Plan<T>::operator=(Dst1Plan&&) noexcept = default;

template <class T>
BoxAddressing Dst1Plan<T>::addressing(const mesh::Field<T, 3>& field) const {
  GRIDFLOW_REQUIRE(field.space() == m_space, "DST-I plan for " + mesh::to_string(m_space) + " memory applied to field '" +
                                                 field.label() + "' in " + mesh::to_string(field.space()) + " memory");
  GRIDFLOW_REQUIRE(field.ghosted().contains(m_box), "DST-I box lies outside field '" + field.label() + "'");
  return box_addressing(field.view(), m_box);
}

template <class T>
void Dst1Plan<T>::prepare_divide_apply() {
  if (!m_fused) return;
  core::run_on_space("fft::dst1", m_space, m_stream, [] {},
                     [&](auto) { prepare_dst1_divide_dst1_onchip<T>(kernel_shape(m_box), m_axis, *m_fused); });
}

template <class T>
void Dst1Plan<T>::apply_divide_apply(mesh::Field<T, 3>& field, const EigenTables<T>& tables, T scale) {
  if (!m_fused) {
    apply(field);
    divide_by_eigenvalues(field, m_box, tables, scale, m_stream);
    apply(field);
    return;
  }
  const BoxAddressing box = addressing(field);
  T* data = field.view().data;
  const std::array<std::int64_t, 3> lo{m_box.lo[0], m_box.lo[1], m_box.lo[2]};
  core::run_on_space("fft::dst1", m_space, m_stream, [] {}, [&](auto) {
    launch_dst1_divide_dst1_onchip(data, box, lo, m_axis, tables, scale, *m_fused, m_stream);
  });
}

template <class T>
void Dst1Plan<T>::apply(mesh::Field<T, 3>& field) {
  const BoxAddressing box = addressing(field);
  const auto view = field.view();
  if (m_fused) {
    core::run_on_space(
        "fft::dst1", m_space, m_stream, [] {},
        [&](auto) { launch_dst1_lines_onchip(view.data, box, m_axis, *m_fused, m_stream); });
    return;
  }
  const auto [p, q] = other_axes(m_axis);
  Dst1Lines g = m_layout;
  g.first = view.offset(m_box.lo[0], m_box.lo[1], m_box.lo[2]);
  g.extent_p = m_box.extent(p);
  g.stride_p = view.stride[p];
  g.stride_q = view.stride[q];
  g.stride_axis = view.stride[m_axis];
  const auto* sines = static_cast<const T*>(m_sines.data());
  auto* real = static_cast<T*>(m_real.data());
  auto* spectrum = static_cast<Complex<T>*>(m_spectrum.data());
  for (std::int64_t first = 0; first < m_lines; first += g.batch) {
    const std::int64_t count = std::min(g.batch, m_lines - first);
    core::run_on_space(
        "fft::dst1", m_space, m_stream,
        [&] {
          fold_host(g, view.data, sines, real, first, count);
          m_fft->execute(real, spectrum);
          unfold_host(g, spectrum, view.data, first, count);
        },
        [&](auto) {
          launch_dst1_fold_cuda(g, view.data, sines, real, first, count, m_stream);
          m_fft->execute(real, spectrum);
          launch_dst1_unfold_cuda(g, spectrum, view.data, first, count, m_stream);
        });
  }
}

template class Dst1Plan<float>;
template class Dst1Plan<double>;

}  // namespace gridflow::kernels::fft
