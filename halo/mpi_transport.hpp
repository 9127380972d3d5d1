#pragma once
// MpiTransport: one MPI_Isend and one MPI_Irecv per peer. Host fields send from host buffers.
// Device fields are staged through pinned host buffers, because Debian's Open MPI (and any MPI
// that is not CUDA-aware) cannot read device pointers: pack on the GPU, one device-to-host copy
// of the whole send buffer, MPI, one host-to-device copy of the whole receive buffer, unpack.
#include <mpi.h>

#include <vector>

#include "halo/transport_backend.hpp"
#include "mesh/decomposition.hpp"
#include "mesh/device.hpp"
#include "mesh/memory_space.hpp"

namespace gridflow::halo::detail {

class MpiTransport final : public TransportBackend {
 public:
  /// `comm` should be private to this exchange, so its messages match nothing else.
  MpiTransport(mesh::SharedComm comm, mesh::MemorySpace space, std::vector<Peer> peers, std::size_t send_bytes,
               std::size_t recv_bytes);
  ~MpiTransport() override;

  std::byte* send_buffer() override;
  const std::byte* recv_buffer() const override;
  void start(StreamHandle stream) override;
  void wait(StreamHandle stream) override;

 private:
  mesh::SharedComm m_comm;
  mesh::MemorySpace m_space;
  std::vector<Peer> m_peers;
  mesh::Buffer m_host_send, m_host_recv;      // what MPI reads and writes
  mesh::Buffer m_device_send, m_device_recv;  // device fields only: what pack/unpack use
  std::vector<MPI_Request> m_recv_requests, m_send_requests;
  std::vector<MPI_Status> m_statuses;
  bool m_active = false;
};

}  // namespace gridflow::halo::detail
