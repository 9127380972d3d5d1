#include "halo/box_redistribution.hpp"

#include <limits>
#include <string>

#include "halo/nccl_transport.hpp"
#include "kernels/pack/box_copy.hpp"
#include "mesh/check.hpp"

namespace gridflow::halo {

namespace {
template <class T>
MPI_Datatype mpi_type() {
  return sizeof(T) == sizeof(float) ? MPI_FLOAT : MPI_DOUBLE;
}
int as_count(std::int64_t n) {
  GRIDFLOW_REQUIRE(n <= std::numeric_limits<int>::max(),
                   "a redistribution message of " + std::to_string(n) + " values exceeds MPI's int counts; use more ranks");
  return static_cast<int>(n);
}
}  // namespace

template <class T, int Dim>
BoxRedistribution<T, Dim>::BoxRedistribution(MPI_Comm comm, std::vector<mesh::Box<Dim>> from, std::vector<mesh::Box<Dim>> to,
                                        mesh::MemorySpace space, StreamHandle stream, halo::Transport transport,
                                        std::shared_ptr<const halo::NcclComm> nccl)
    : m_comm(comm), m_space(space), m_stream(stream) {
  int size = 0;
  GRIDFLOW_MPI_CHECK(MPI_Comm_size(comm, &size));
  GRIDFLOW_MPI_CHECK(MPI_Comm_rank(comm, &m_rank));
  GRIDFLOW_REQUIRE(from.size() == static_cast<std::size_t>(size) && to.size() == static_cast<std::size_t>(size),
                   "a redistribution needs one source and one destination box per rank");
  const auto n = static_cast<std::size_t>(size);
  m_send_boxes.resize(n);
  m_recv_boxes.resize(n);
  m_send_counts.assign(n, 0);
  m_send_at.assign(n, 0);
  m_recv_counts.assign(n, 0);
  m_recv_at.assign(n, 0);
  for (std::size_t r = 0; r < n; ++r) {
    m_send_boxes[r] = from[m_rank].intersect(to[r]);
    m_recv_boxes[r] = to[m_rank].intersect(from[r]);
    if (static_cast<int>(r) == m_rank) continue;  // unpacked from the send buffer, not sent
    m_send_at[r] = as_count(m_sent);
    m_send_counts[r] = as_count(m_send_boxes[r].size());
    m_sent += m_send_counts[r];
    m_recv_at[r] = as_count(m_received);
    m_recv_counts[r] = as_count(m_recv_boxes[r].size());
    m_received += m_recv_counts[r];
  }
  m_send_at[m_rank] = as_count(m_sent);  // own piece last: the others' pieces are one contiguous prefix
  const auto own = static_cast<std::size_t>(m_send_boxes[m_rank].size());
  if (transport == halo::Transport::nccl) {
    GRIDFLOW_REQUIRE(space == mesh::MemorySpace::device, "a redistribution over NCCL needs device fields");
    GRIDFLOW_REQUIRE(nccl && nccl->size() == size && nccl->rank() == m_rank,
                     "a redistribution over NCCL needs a communicator over the same ranks");
    std::vector<halo::detail::Peer> peers;
    for (std::size_t r = 0; r < n; ++r) {
      if (static_cast<int>(r) == m_rank || (m_send_counts[r] == 0 && m_recv_counts[r] == 0)) continue;
      halo::detail::Peer p;
      p.rank = static_cast<int>(r);
      p.send_offset = static_cast<std::size_t>(m_send_at[r]) * sizeof(T);
      p.send_bytes = static_cast<std::size_t>(m_send_counts[r]) * sizeof(T);
      p.recv_offset = static_cast<std::size_t>(m_recv_at[r]) * sizeof(T);
      p.recv_bytes = static_cast<std::size_t>(m_recv_counts[r]) * sizeof(T);
      peers.push_back(p);
    }
    m_nccl = std::make_unique<halo::detail::NcclTransport>(std::move(nccl), std::move(peers),
                                                           (static_cast<std::size_t>(m_sent) + own) * sizeof(T),
                                                           static_cast<std::size_t>(m_received) * sizeof(T));
    return;
  }
  m_send = mesh::Buffer((static_cast<std::size_t>(m_sent) + own) * sizeof(T), space);
  m_recv = mesh::Buffer(static_cast<std::size_t>(m_received) * sizeof(T), space);
  if (space == mesh::MemorySpace::device) {
    m_send_staged = mesh::Buffer(static_cast<std::size_t>(m_sent) * sizeof(T), mesh::MemorySpace::host, true);
    m_recv_staged = mesh::Buffer(static_cast<std::size_t>(m_received) * sizeof(T), mesh::MemorySpace::host, true);
  }
}

template <class T, int Dim>
BoxRedistribution<T, Dim>::~BoxRedistribution() = default;

template <class T, int Dim>
void BoxRedistribution<T, Dim>::apply(const mesh::Field<T, Dim>* src, mesh::Field<T, Dim>* dst) {
  const std::size_t ranks = m_send_boxes.size();
  auto* send = m_nccl ? reinterpret_cast<T*>(m_nccl->send_buffer()) : static_cast<T*>(m_send.data());
  const T* recv = m_nccl ? reinterpret_cast<const T*>(m_nccl->recv_buffer()) : static_cast<const T*>(m_recv.data());
  for (std::size_t r = 0; r < ranks; ++r) {
    if (m_send_boxes[r].empty()) continue;
    GRIDFLOW_REQUIRE(src && src->space() == m_space, "redistribution source missing or in the wrong memory space");
    kernels::pack::pack(*src, m_send_boxes[r], send + m_send_at[r], m_stream);
  }
  if (m_nccl) {
    m_nccl->start(m_stream);
    m_nccl->wait(m_stream);
  } else {
    exchange_over_mpi(send);
  }
  for (std::size_t r = 0; r < ranks; ++r) {
    if (m_recv_boxes[r].empty()) continue;
    GRIDFLOW_REQUIRE(dst && dst->space() == m_space, "redistribution destination missing or in the wrong memory space");
    const bool own = static_cast<int>(r) == m_rank;
    kernels::pack::unpack(own ? send + m_send_at[r] : recv + m_recv_at[r], m_recv_boxes[r], *dst, m_stream);
  }
}

template <class T, int Dim>
void BoxRedistribution<T, Dim>::warm_up() {
  if (!m_nccl) return;
  m_nccl->start(m_stream);
  mesh::synchronize(m_stream);
}

template <class T, int Dim>
void BoxRedistribution<T, Dim>::exchange_over_mpi(const T* send) {
  const std::size_t ranks = m_send_boxes.size();
  auto* recv = static_cast<T*>(m_recv.data());
  const bool device = m_space == mesh::MemorySpace::device;
  const std::size_t sent_bytes = static_cast<std::size_t>(m_sent) * sizeof(T);
  const std::size_t received_bytes = static_cast<std::size_t>(m_received) * sizeof(T);
  if (device) {
    mesh::copy_bytes_async(m_send_staged.data(), mesh::MemorySpace::host, send, m_space, sent_bytes, m_stream);
    mesh::synchronize(m_stream);
  }
  if (ranks > 1) {
    GRIDFLOW_MPI_CHECK(MPI_Alltoallv(device ? m_send_staged.data() : send, m_send_counts.data(), m_send_at.data(),
                                     mpi_type<T>(), device ? m_recv_staged.data() : recv, m_recv_counts.data(),
                                     m_recv_at.data(), mpi_type<T>(), m_comm));
  }
  if (device) mesh::copy_bytes_async(recv, m_space, m_recv_staged.data(), mesh::MemorySpace::host, received_bytes, m_stream);
}

template class BoxRedistribution<float, 2>;
template class BoxRedistribution<double, 2>;
template class BoxRedistribution<float, 3>;
template class BoxRedistribution<double, 3>;

}  // namespace gridflow::halo
