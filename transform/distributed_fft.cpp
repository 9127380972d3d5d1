#include "transform/distributed_fft.hpp"

#include "mesh/check.hpp"

namespace gridflow::transform {

using kernels::fft::FftDirection;
using kernels::fft::FftKind;

namespace {

/// Element strides of a field per axis (3 entries; a 2D field's third is never stepped along):
/// in T for real values, in Complex<T> for x-interleaved complex ones.
template <class T, int Dim>
std::array<mesh::Index, 3> strides(const mesh::Field<T, Dim>& f, bool complex) {
  std::array<mesh::Index, 3> s{1, 1, 1};
  for (int d = 1; d < Dim; ++d) s[d] = complex ? f.stride(d) / 2 : f.stride(d);
  if (Dim == 2) s[2] = s[1] * f.ghosted().extent(1);
  return s;
}

/// Extents of a box per axis (3 entries; 1 for the third axis of a 2D box).
template <int Dim>
std::array<mesh::Index, 3> extents(const mesh::Box<Dim>& b) {
  std::array<mesh::Index, 3> e{1, 1, 1};
  for (int d = 0; d < Dim; ++d) e[d] = b.extent(d);
  return e;
}

template <int Dim>
std::vector<mesh::Box<Dim>> interleaved(const std::vector<mesh::Box<Dim>>& boxes) {
  std::vector<mesh::Box<Dim>> out;
  for (const auto& b : boxes) out.push_back(transform::interleaved(b));
  return out;
}

}  // namespace

template <class T, int Dim>
DistributedFft<T, Dim>::DistributedFft(const mesh::Decomposition<Dim>& d, FftValues values, mesh::MemorySpace space,
                                       StreamHandle stream, DistributedFftOptions options)
    : m_values(values), m_rank(d.rank()) {
  const int ranks = d.size();
  const bool real = values == FftValues::real;
  m_stages = plan_fft_stages<Dim>(d.grid().points(), values, options.decomposition, ranks);
  const auto tunables = options.tunables.value_or(kernels::fft::default_fft_tunables(space));
  const auto& stages = m_stages.stages;
  const std::size_t count = stages.size();

  // One buffer per distinct layout; consecutive stages on the same boxes share it.
  m_fields.assign(count, nullptr);
  for (std::size_t s = 0; s < count; ++s) {
    if (s > 0 && stages[s].boxes == stages[s - 1].boxes) {
      m_fields[s] = m_fields[s - 1];
      continue;
    }
    const auto& box = stages[s].boxes[m_rank];
    if (box.empty()) continue;
    m_owned_fields.push_back(std::make_unique<mesh::Field<T, Dim>>(interleaved(box), 0, space, "fft_stage"));
    m_fields[s] = m_owned_fields.back().get();
  }
  if (real && !m_stages.real_boxes[m_rank].empty())
    m_real = std::make_unique<mesh::Field<T, Dim>>(m_stages.real_boxes[m_rank], 0, space, "fft_real");

  // The 1D transforms of every stage this rank takes part in.
  m_forward.resize(count);
  m_inverse.resize(count);
  for (std::size_t s = 0; s < count; ++s) {
    if (!m_fields[s]) continue;
    const int axis = stages[s].axis;
    AxisFftShape shape;
    shape.axis = axis;
    shape.lines = extents(stages[s].boxes[m_rank]);
    shape.in_stride = shape.out_stride = strides(*m_fields[s], true);
    if (s == 0 && real) {
      // r2c from the real values along x; c2r back.
      shape.length = m_stages.real_boxes[m_rank].extent(0);
      AxisFftShape back = shape;
      shape.in_stride = strides(*m_real, false);
      back.out_stride = shape.in_stride;
      m_forward[s] = std::make_unique<AxisFft<T>>(FftKind::r2c, FftDirection::forward, shape, space, stream, tunables,
                                                  options.line_by_line);
      m_inverse[s] = std::make_unique<AxisFft<T>>(FftKind::c2r, FftDirection::inverse, back, space, stream, tunables,
                                                  options.line_by_line);
      continue;
    }
    shape.length = shape.lines[axis];
    m_forward[s] = std::make_unique<AxisFft<T>>(FftKind::c2c, FftDirection::forward, shape, space, stream, tunables,
                                                options.line_by_line);
    m_inverse[s] = std::make_unique<AxisFft<T>>(FftKind::c2c, FftDirection::inverse, shape, space, stream, tunables,
                                                options.line_by_line);
  }

  // The transposes: owned <-> stage 0, and between stages whose boxes differ.
  const MPI_Comm comm = d.comm();
  if (options.transport == halo::Transport::nccl) m_nccl = std::make_shared<const halo::NcclComm>(comm);
  auto redistribution = [&](const std::vector<mesh::Box<Dim>>& from, const std::vector<mesh::Box<Dim>>& to) {
    auto r = std::make_unique<halo::BoxRedistribution<T, Dim>>(comm, from, to, space, stream, options.transport, m_nccl);
    r->warm_up();
    return r;
  };
  std::vector<mesh::Box<Dim>> owned;
  for (int r = 0; r < ranks; ++r) owned.push_back(d.owned_by(r));
  if (!real) owned = interleaved(owned);
  const auto first = real ? m_stages.real_boxes : interleaved(stages[0].boxes);
  m_in = redistribution(owned, first);
  m_out = redistribution(first, owned);
  m_to_next.resize(count);
  m_to_previous.resize(count);
  for (std::size_t s = 0; s + 1 < count; ++s) {
    if (stages[s].boxes == stages[s + 1].boxes) continue;
    m_to_next[s] = redistribution(interleaved(stages[s].boxes), interleaved(stages[s + 1].boxes));
    m_to_previous[s] = redistribution(interleaved(stages[s + 1].boxes), interleaved(stages[s].boxes));
  }
}

template <class T, int Dim>
DistributedFft<T, Dim>::~DistributedFft() = default;

template <class T, int Dim>
void DistributedFft<T, Dim>::forward(const mesh::Field<T, Dim>& input) {
  const bool real = m_values == FftValues::real;
  m_in->apply(&input, real ? m_real.get() : m_fields[0]);
  for (std::size_t s = 0; s < m_fields.size(); ++s) {
    if (s > 0 && m_to_next[s - 1]) m_to_next[s - 1]->apply(m_fields[s - 1], m_fields[s]);
    if (!m_fields[s]) continue;
    T* values = m_fields[s]->view().data;
    m_forward[s]->execute(s == 0 && real ? m_real->view().data : values, values);
  }
}

template <class T, int Dim>
void DistributedFft<T, Dim>::inverse(mesh::Field<T, Dim>& output) {
  const bool real = m_values == FftValues::real;
  for (std::size_t s = m_fields.size(); s-- > 0;) {
    if (m_fields[s]) {
      T* values = m_fields[s]->view().data;
      m_inverse[s]->execute(values, s == 0 && real ? m_real->view().data : values);
    }
    if (s > 0 && m_to_previous[s - 1]) m_to_previous[s - 1]->apply(m_fields[s], m_fields[s - 1]);
  }
  m_out->apply(real ? m_real.get() : m_fields[0], &output);
}

template class DistributedFft<float, 2>;
template class DistributedFft<double, 2>;
template class DistributedFft<float, 3>;
template class DistributedFft<double, 3>;

}  // namespace gridflow::transform
