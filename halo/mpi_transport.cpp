#include "halo/mpi_transport.hpp"

#include <climits>
#include <utility>

#include "mesh/check.hpp"

namespace gridflow::halo::detail {

namespace {
int message_count(std::size_t bytes) {
  GRIDFLOW_REQUIRE(bytes <= static_cast<std::size_t>(INT_MAX), "a halo message exceeds 2 GiB, the limit of an MPI count");
  return static_cast<int>(bytes);
}

// MPI_Waitall's own error says only "error code in status"; name the peer and the real error.
void wait_all(std::vector<MPI_Request>& requests, std::vector<MPI_Status>& statuses, const std::vector<Peer>& peers,
              bool receives, const char* file, int line) {
  const int rc = MPI_Waitall(static_cast<int>(requests.size()), requests.data(), statuses.data());
  if (rc == MPI_SUCCESS) return;
  if (rc == MPI_ERR_IN_STATUS) {
    for (std::size_t i = 0; i < statuses.size(); ++i) {
      const int e = statuses[i].MPI_ERROR;
      if (e == MPI_SUCCESS || e == MPI_ERR_PENDING) continue;
      const Peer& p = peers[i];
      const std::string call = std::string("MPI_Waitall, halo message ") + (receives ? "from" : "to") + " rank " +
                               std::to_string(p.rank) + " tag " + std::to_string(receives ? p.recv_tag : p.send_tag);
      ::gridflow::detail::throw_call_failure("MPI", call.c_str(), ::gridflow::detail::mpi_error_string(e), file, line);
    }
  }
  ::gridflow::detail::throw_call_failure("MPI", "MPI_Waitall, halo messages", ::gridflow::detail::mpi_error_string(rc),
                                         file, line);
}

}  // namespace

MpiTransport::MpiTransport(mesh::SharedComm comm, mesh::MemorySpace space, std::vector<Peer> peers,
                           std::size_t send_bytes, std::size_t recv_bytes)
    : m_comm(std::move(comm)), m_space(space), m_peers(std::move(peers)),
      m_recv_requests(m_peers.size(), MPI_REQUEST_NULL), m_send_requests(m_peers.size(), MPI_REQUEST_NULL),
      m_statuses(m_peers.size()) {
  const bool device = space == mesh::MemorySpace::device;
  // Pinned memory lets the staging copies run asynchronously at full bandwidth; host fields
  // never touch the GPU, so they must not need a CUDA context for their buffers.
  m_host_send = mesh::Buffer(send_bytes, mesh::MemorySpace::host, device);
  m_host_recv = mesh::Buffer(recv_bytes, mesh::MemorySpace::host, device);
  if (device) {
    m_device_send = mesh::Buffer(send_bytes, mesh::MemorySpace::device);
    m_device_recv = mesh::Buffer(recv_bytes, mesh::MemorySpace::device);
  }
  for (const Peer& p : m_peers) message_count(p.send_bytes), message_count(p.recv_bytes);
}

MpiTransport::~MpiTransport() {
  if (!m_active) return;
  // Destroyed between start() and wait(): only when an exception unwinds this rank, which then
  // aborts the job. MPI may still write into or read from the buffers, so they are left
  // allocated rather than freed under it, and the requests are released unwaited (waiting could
  // hang on a peer that never sends).
  int finalized = 1;
  MPI_Finalized(&finalized);
  if (!finalized) {
    for (auto* requests : {&m_recv_requests, &m_send_requests})
      for (MPI_Request& r : *requests)
        if (r != MPI_REQUEST_NULL) MPI_Request_free(&r);
  }
  for (mesh::Buffer* b : {&m_host_send, &m_host_recv, &m_device_send, &m_device_recv})
    static_cast<void>(new mesh::Buffer(std::move(*b)));  // deliberately leaked, see above
}

std::byte* MpiTransport::send_buffer() {
  return static_cast<std::byte*>(m_space == mesh::MemorySpace::device ? m_device_send.data() : m_host_send.data());
}
const std::byte* MpiTransport::recv_buffer() const {
  return static_cast<const std::byte*>(m_space == mesh::MemorySpace::device ? m_device_recv.data()
                                                                            : m_host_recv.data());
}

void MpiTransport::start(StreamHandle stream) {
  GRIDFLOW_REQUIRE(!m_active, "MpiTransport::start called twice without wait");
  if (m_space == mesh::MemorySpace::device) {
    mesh::copy_bytes_async(m_host_send.data(), mesh::MemorySpace::host, m_device_send.data(),
                           mesh::MemorySpace::device, m_host_send.bytes(), stream);
    // Besides the staging copy just queued, this also retires the previous wait()'s copy out
    // of the host receive buffer, which the receives posted below overwrite.
    mesh::synchronize(stream);
  }
  const MPI_Comm comm = *m_comm;
  auto* send = static_cast<std::byte*>(m_host_send.data());
  auto* recv = static_cast<std::byte*>(m_host_recv.data());
  m_active = true;
  for (std::size_t i = 0; i < m_peers.size(); ++i) {
    const Peer& p = m_peers[i];
    GRIDFLOW_MPI_CHECK(MPI_Irecv(recv + p.recv_offset, message_count(p.recv_bytes), MPI_BYTE, p.rank, p.recv_tag,
                                 comm, &m_recv_requests[i]));
  }
  for (std::size_t i = 0; i < m_peers.size(); ++i) {
    const Peer& p = m_peers[i];
    GRIDFLOW_MPI_CHECK(MPI_Isend(send + p.send_offset, message_count(p.send_bytes), MPI_BYTE, p.rank, p.send_tag,
                                 comm, &m_send_requests[i]));
  }
}

void MpiTransport::wait(StreamHandle stream) {
  GRIDFLOW_REQUIRE(m_active, "MpiTransport::wait called without start");
  wait_all(m_recv_requests, m_statuses, m_peers, true, __FILE__, __LINE__);
  if (m_space == mesh::MemorySpace::device)
    mesh::copy_bytes_async(m_device_recv.data(), mesh::MemorySpace::device, m_host_recv.data(),
                           mesh::MemorySpace::host, m_host_recv.bytes(), stream);
  // The next start() refills the send buffer, so the sends must be done before we return.
  wait_all(m_send_requests, m_statuses, m_peers, false, __FILE__, __LINE__);
  m_active = false;
}

}  // namespace gridflow::halo::detail
