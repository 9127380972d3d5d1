#include "solver/slab_sine_transform.hpp"

#include <vector>

namespace gridflow::solver {

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
SlabSineTransform<T>::SlabSineTransform(const mesh::Decomposition<3>& d, mesh::MemorySpace space, StreamHandle stream) {
  const auto interior = d.grid().interior();
  const int ranks = d.size(), me = d.rank();
  std::vector<mesh::Box<3>> owned(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) owned[r] = d.owned_by(r).intersect(interior);
  const auto z_slabs = slabs(interior, 2, ranks), y_slabs = slabs(interior, 1, ranks);
  m_owned_interior = owned[me];
  m_z_slab_box = z_slabs[me];
  m_y_slab_box = y_slabs[me];
  if (!m_z_slab_box.empty()) {
    m_z_slab = std::make_unique<mesh::Field<T, 3>>(m_z_slab_box, 0, space, "z_slab");
    m_dst_x = std::make_unique<kernels::fft::Dst1Plan<T>>(m_z_slab_box, 0, space, stream);
    m_dst_y = std::make_unique<kernels::fft::Dst1Plan<T>>(m_z_slab_box, 1, space, stream);
  }
  if (!m_y_slab_box.empty()) {
    m_y_slab = std::make_unique<mesh::Field<T, 3>>(m_y_slab_box, 0, space, "y_slab");
    m_dst_z = std::make_unique<kernels::fft::Dst1Plan<T>>(m_y_slab_box, 2, space, stream);
  }
  const MPI_Comm comm = d.comm();
  m_owned_to_z = std::make_unique<BoxRedistribution<T>>(comm, owned, z_slabs, space, stream);
  m_z_to_y = std::make_unique<BoxRedistribution<T>>(comm, z_slabs, y_slabs, space, stream);
  m_y_to_z = std::make_unique<BoxRedistribution<T>>(comm, y_slabs, z_slabs, space, stream);
  m_z_to_owned = std::make_unique<BoxRedistribution<T>>(comm, z_slabs, owned, space, stream);
}

template <class T>
void SlabSineTransform<T>::forward(const mesh::Field<T, 3>* values) {
  m_owned_to_z->apply(values, m_z_slab.get());
  if (m_z_slab) {
    m_dst_x->apply(*m_z_slab);
    m_dst_y->apply(*m_z_slab);
  }
  m_z_to_y->apply(m_z_slab.get(), m_y_slab.get());
  if (m_y_slab) m_dst_z->apply(*m_y_slab);
}

template <class T>
void SlabSineTransform<T>::inverse(mesh::Field<T, 3>& out) {
  if (m_y_slab) m_dst_z->apply(*m_y_slab);
  m_y_to_z->apply(m_y_slab.get(), m_z_slab.get());
  if (m_z_slab) {
    m_dst_y->apply(*m_z_slab);
    m_dst_x->apply(*m_z_slab);
  }
  m_z_to_owned->apply(m_z_slab.get(), &out);
}

template class SlabSineTransform<float>;
template class SlabSineTransform<double>;

}  // namespace gridflow::solver
