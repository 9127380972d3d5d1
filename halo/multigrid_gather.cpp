#include "halo/multigrid_gather.hpp"

#include <algorithm>
#include <numeric>

#include "kernels/multigrid/transfer.hpp"
#include "kernels/pack/box_copy.hpp"
#include "mesh/check.hpp"

namespace gridflow::halo {

namespace {

template <class T>
MPI_Datatype mpi_type() {
  return sizeof(T) == sizeof(float) ? MPI_FLOAT : MPI_DOUBLE;
}

std::vector<int> offsets_of(const std::vector<int>& counts) {
  std::vector<int> offsets(counts.size(), 0);
  std::partial_sum(counts.begin(), counts.end() - 1, offsets.begin() + 1);
  return offsets;
}

int count_of(const mesh::Box<3>& box) {
  GRIDFLOW_REQUIRE(box.size() < (mesh::Index(1) << 31), "a gathered multigrid piece exceeds MPI's int count");
  return static_cast<int>(box.size());
}

}  // namespace

template <class T>
MultigridGather<T>::MultigridGather(const mesh::Decomposition<3>& fine, const mesh::Grid<3>& coarse,
                                    const kernels::multigrid::Coarsening& coarsening, mesh::MemorySpace space, StreamHandle stream)
    : m_comm(fine.comm()), m_rank(fine.rank()), m_space(space), m_stream(stream), m_coarsening(coarsening) {
  const auto fine_interior = fine.grid().interior();
  const auto coarse_interior = coarse.interior();
  m_fine_updated = fine.owned().intersect(fine_interior);
  for (int r = 0; r < fine.size(); ++r) {
    const auto owned = fine.owned_by(r);
    const auto restricted = kernels::multigrid::coarse_points_under(owned, coarsening).intersect(coarse_interior);
    const auto updated = owned.intersect(fine_interior);
    const auto read = updated.empty() ? updated : kernels::multigrid::prolongation_footprint(updated, coarsening);
    m_restricted.push_back(restricted);
    m_read.push_back(read);
    m_restricted_counts.push_back(count_of(restricted));
    m_read_counts.push_back(count_of(read));
  }
  m_restricted_offsets = offsets_of(m_restricted_counts);
  m_read_offsets = offsets_of(m_read_counts);

  if (!m_restricted[m_rank].empty())
    m_restricted_piece = std::make_unique<mesh::Field<T, 3>>(m_restricted[m_rank], 0, space, "mg_restricted_piece");
  if (!m_read[m_rank].empty()) m_read_piece = std::make_unique<mesh::Field<T, 3>>(m_read[m_rank], 0, space, "mg_read_piece");
  const auto total = [](const std::vector<int>& c) { return static_cast<std::size_t>(std::accumulate(c.begin(), c.end(), 0ll)); };
  const std::size_t root_elements = m_rank == 0 ? std::max(total(m_restricted_counts), total(m_read_counts)) : 0;
  const std::size_t own = std::max(m_restricted_counts[m_rank], m_read_counts[m_rank]);
  m_host.resize(root_elements);
  m_piece.resize(own);
  if (space == mesh::MemorySpace::device)
    m_device = mesh::Buffer(std::max<std::size_t>(std::max(root_elements, own), 1) * sizeof(T), space);
}

template <class T>
void MultigridGather<T>::box_to_host(const mesh::Field<T, 3>& field, const mesh::Box<3>& box, T* host, std::size_t staging_offset) {
  if (box.empty()) return;
  if (m_space == mesh::MemorySpace::host) {
    kernels::pack::pack(field, box, host, m_stream);
    return;
  }
  T* staged = static_cast<T*>(m_device.data()) + staging_offset;
  kernels::pack::pack(field, box, staged, m_stream);
  mesh::copy_bytes_async(host, mesh::MemorySpace::host, staged, m_space, static_cast<std::size_t>(box.size()) * sizeof(T), m_stream);
  mesh::synchronize(m_stream);  // the host values go to MPI next
}

template <class T>
const T* MultigridGather<T>::host_to_space(const T* host, std::size_t count) {
  if (m_space == mesh::MemorySpace::host) return host;
  // On the stream of the unpacks that read it, after those of the previous call.
  mesh::copy_bytes_async(m_device.data(), m_space, host, mesh::MemorySpace::host, count * sizeof(T), m_stream);
  return static_cast<const T*>(m_device.data());
}

template <class T>
void MultigridGather<T>::restrict_to_root(const mesh::Field<T, 3>& fine_residual, mesh::Field<T, 3>* coarse_rhs) {
  const auto& mine = m_restricted[m_rank];
  if (!mine.empty()) {
    kernels::multigrid::restrict_full_weighting(fine_residual, *m_restricted_piece, mine, m_stream, m_coarsening);
    box_to_host(*m_restricted_piece, mine, m_piece.data(), 0);
  }
  GRIDFLOW_MPI_CHECK(MPI_Gatherv(m_piece.data(), m_restricted_counts[m_rank], mpi_type<T>(), m_host.data(),
                                 m_restricted_counts.data(), m_restricted_offsets.data(), mpi_type<T>(), 0, m_comm));
  if (m_rank != 0) return;
  GRIDFLOW_REQUIRE(coarse_rhs != nullptr, "rank 0 needs the coarse right-hand side to gather into");
  const T* values = host_to_space(m_host.data(), m_host.size());
  for (std::size_t r = 0; r < m_restricted.size(); ++r)
    if (!m_restricted[r].empty()) kernels::pack::unpack(values + m_restricted_offsets[r], m_restricted[r], *coarse_rhs, m_stream);
}

template <class T>
void MultigridGather<T>::prolong_from_root(const mesh::Field<T, 3>* coarse_correction, mesh::Field<T, 3>& fine_solution) {
  if (m_rank == 0) {
    GRIDFLOW_REQUIRE(coarse_correction != nullptr, "rank 0 needs the coarse correction to scatter");
    for (std::size_t r = 0; r < m_read.size(); ++r)
      box_to_host(*coarse_correction, m_read[r], m_host.data() + m_read_offsets[r], static_cast<std::size_t>(m_read_offsets[r]));
  }
  GRIDFLOW_MPI_CHECK(MPI_Scatterv(m_host.data(), m_read_counts.data(), m_read_offsets.data(), mpi_type<T>(), m_piece.data(),
                                  m_read_counts[m_rank], mpi_type<T>(), 0, m_comm));
  const auto& mine = m_read[m_rank];
  if (mine.empty()) return;
  kernels::pack::unpack(host_to_space(m_piece.data(), m_piece.size()), mine, *m_read_piece, m_stream);
  kernels::multigrid::prolong_and_add(*m_read_piece, fine_solution, m_fine_updated, m_stream, m_coarsening);
}

template class MultigridGather<float>;
template class MultigridGather<double>;

}  // namespace gridflow::halo
