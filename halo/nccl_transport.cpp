#include "halo/nccl_transport.hpp"

#include <utility>

#include "gridflow/config.hpp"
#include "mesh/check.hpp"

#if GRIDFLOW_HAVE_NCCL
#include <cuda_runtime_api.h>
#include <nccl.h>
#endif

namespace gridflow::halo::detail {

#if GRIDFLOW_HAVE_NCCL

NcclTransport::NcclTransport(std::shared_ptr<const NcclComm> comm, std::vector<Peer> peers, std::size_t send_bytes,
                             std::size_t recv_bytes)
    : m_comm(std::move(comm)), m_peers(std::move(peers)),
      m_send(send_bytes, mesh::MemorySpace::device), m_recv(recv_bytes, mesh::MemorySpace::device) {
  GRIDFLOW_REQUIRE(m_comm != nullptr, "NcclTransport needs a communicator");
  int device = -1;
  GRIDFLOW_CUDA_CHECK(cudaGetDevice(&device));
  GRIDFLOW_REQUIRE(device == m_comm->device(), "the NCCL communicator was created on CUDA device " +
                                                   std::to_string(m_comm->device()) + " but device " +
                                                   std::to_string(device) + " is current");
}

void NcclTransport::start(StreamHandle stream) {
  // One group: NCCL then schedules all sends and receives together, which both avoids the
  // deadlock of ordered blocking pairs and lets the transfers to different peers overlap.
  GRIDFLOW_NCCL_CHECK(ncclGroupStart());
  try {
    for (const Peer& p : m_peers) {
      GRIDFLOW_NCCL_CHECK(ncclRecv(static_cast<std::byte*>(m_recv.data()) + p.recv_offset, p.recv_bytes, ncclUint8,
                                   p.rank, m_comm->get(), stream));
      GRIDFLOW_NCCL_CHECK(ncclSend(static_cast<const std::byte*>(m_send.data()) + p.send_offset, p.send_bytes,
                                   ncclUint8, p.rank, m_comm->get(), stream));
    }
  } catch (...) {
    ncclGroupEnd();  // leave NCCL's per-thread group state closed for whatever runs next
    throw;
  }
  GRIDFLOW_NCCL_CHECK(ncclGroupEnd());
}

#else

NcclTransport::NcclTransport(std::shared_ptr<const NcclComm>, std::vector<Peer>, std::size_t, std::size_t) {
  throw Error("the nccl halo transport needs NCCL, and this gridflow was built without it");
}
void NcclTransport::start(StreamHandle) {}

#endif

}  // namespace gridflow::halo::detail
