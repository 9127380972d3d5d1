#include "transform/distributed_sine_transform.hpp"

#include <utility>
#include <vector>

#include "mesh/check.hpp"

namespace gridflow::transform {

namespace {

// The slabs of `whole` along `axis` for every rank, split like the Decomposition splits points.
std::vector<mesh::Box<3>> slabs(const mesh::Box<3>& whole, int axis, int ranks) {
  std::vector<mesh::Box<3>> boxes(static_cast<std::size_t>(ranks), whole);
  for (int r = 0; r < ranks; ++r) {
    const auto range = mesh::split_range(whole.extent(axis), ranks, r);
    boxes[r].lo[axis] = whole.lo[axis] + range[0];
    boxes[r].hi[axis] = whole.lo[axis] + range[1];
  }
  return boxes;
}

}  // namespace

template <class T>
DistributedSineTransform<T>::DistributedSineTransform(const mesh::Decomposition<3>& d, mesh::MemorySpace space,
                                                      StreamHandle stream, halo::Transport transport,
                                                      std::optional<kernels::fft::FftTunables> fft) {
  const auto interior = d.grid().interior();
  const int ranks = d.size(), me = d.rank();
  std::vector<mesh::Box<3>> owned(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) owned[r] = d.owned_by(r).intersect(interior);
  const auto z_slabs = slabs(interior, 2, ranks), y_slabs = slabs(interior, 1, ranks);
  m_owned_interior = owned[me];
  m_z_slab_box = z_slabs[me];
  m_y_slab_box = y_slabs[me];
  m_local = ranks == 1;
  if (!m_z_slab_box.empty()) {
    m_dst_x = std::make_unique<kernels::fft::Dst1Plan<T>>(m_z_slab_box, 0, space, stream, 0, fft);
    m_dst_y = std::make_unique<kernels::fft::Dst1Plan<T>>(m_z_slab_box, 1, space, stream, 0, fft);
  }
  if (!m_y_slab_box.empty()) m_dst_z = std::make_unique<kernels::fft::Dst1Plan<T>>(m_y_slab_box, 2, space, stream, 0, fft);
  if (m_local && m_dst_z) m_dst_z->prepare_divide_apply();  // solve_in_place's z transforms
  m_slab_path = [this, comm = d.comm(), owned, z_slabs, y_slabs, space, stream, transport] {
    if (!m_z_slab_box.empty()) m_z_slab = std::make_unique<mesh::Field<T, 3>>(m_z_slab_box, 0, space, "z_slab");
    if (!m_y_slab_box.empty()) m_y_slab = std::make_unique<mesh::Field<T, 3>>(m_y_slab_box, 0, space, "y_slab");
    if (transport == halo::Transport::nccl) m_nccl = std::make_shared<const halo::NcclComm>(comm);
    auto redistribution = [&](const std::vector<mesh::Box<3>>& from, const std::vector<mesh::Box<3>>& to) {
      return std::make_unique<halo::BoxRedistribution<T>>(comm, from, to, space, stream, transport, m_nccl);
    };
    m_owned_to_z = redistribution(owned, z_slabs);
    m_z_to_y = redistribution(z_slabs, y_slabs);
    m_y_to_z = redistribution(y_slabs, z_slabs);
    m_z_to_owned = redistribution(z_slabs, owned);
    for (auto* r : {m_owned_to_z.get(), m_z_to_y.get(), m_y_to_z.get(), m_z_to_owned.get()}) r->warm_up();
  };
  // One rank transforms in place and needs neither slab copies nor their buffers (about four
  // copies of the field) unless forward() / inverse() are called.
  if (!m_local) make_slab_path();
}

template <class T>
void DistributedSineTransform<T>::make_slab_path() {
  if (m_slab_path) std::exchange(m_slab_path, nullptr)();
}

template <class T>
void DistributedSineTransform<T>::forward(const mesh::Field<T, 3>* values) {
  make_slab_path();
  m_owned_to_z->apply(values, m_z_slab.get());
  if (m_z_slab) {
    m_dst_x->apply(*m_z_slab);
    m_dst_y->apply(*m_z_slab);
  }
  m_z_to_y->apply(m_z_slab.get(), m_y_slab.get());
  if (m_y_slab) m_dst_z->apply(*m_y_slab);
}

template <class T>
void DistributedSineTransform<T>::inverse(mesh::Field<T, 3>& out) {
  make_slab_path();
  if (m_y_slab) m_dst_z->apply(*m_y_slab);
  m_y_to_z->apply(m_y_slab.get(), m_z_slab.get());
  if (m_z_slab) {
    m_dst_y->apply(*m_z_slab);
    m_dst_x->apply(*m_z_slab);
  }
  m_z_to_owned->apply(m_z_slab.get(), &out);
}

template <class T>
void DistributedSineTransform<T>::solve_in_place(mesh::Field<T, 3>& field, const kernels::fft::EigenTables<T>& tables,
                                                 T scale, const std::function<void(int)>& stage) {
  GRIDFLOW_REQUIRE(m_local, "an in-place sine transform needs the whole interior on one rank");
  if (m_owned_interior.empty()) return;
  auto begin = [&](int s) {
    if (stage) stage(s);
  };
  begin(0);
  m_dst_x->apply(field);
  m_dst_y->apply(field);
  begin(1);
  m_dst_z->apply_divide_apply(field, tables, scale);
  begin(2);
  m_dst_y->apply(field);
  m_dst_x->apply(field);
}

template class DistributedSineTransform<float>;
template class DistributedSineTransform<double>;

}  // namespace gridflow::transform
