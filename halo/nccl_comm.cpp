#include "halo/nccl_comm.hpp"

#include <cstddef>

#include "gridflow/config.hpp"
#include "mesh/check.hpp"
#include "mesh/device.hpp"

#if GRIDFLOW_HAVE_NCCL
#include <cuda_runtime_api.h>
#include <nccl.h>
#endif

namespace gridflow::halo {

#if GRIDFLOW_HAVE_NCCL

NcclComm::NcclComm(MPI_Comm comm) {
  GRIDFLOW_MPI_CHECK(MPI_Comm_rank(comm, &m_rank));
  GRIDFLOW_MPI_CHECK(MPI_Comm_size(comm, &m_size));
  GRIDFLOW_CUDA_CHECK(cudaGetDevice(&m_device));
  // The result travels with the id: if rank 0 cannot make one, every rank throws instead of
  // the others waiting in ncclCommInitRank for a rank that is gone.
  struct {
    int result;
    ncclUniqueId id;
  } root{};
  if (m_rank == 0) root.result = static_cast<int>(ncclGetUniqueId(&root.id));
  GRIDFLOW_MPI_CHECK(MPI_Bcast(&root, sizeof root, MPI_BYTE, 0, comm));
  if (root.result != ncclSuccess)
    detail::throw_call_failure("NCCL", "ncclGetUniqueId(&id) on rank 0",
                               ncclGetErrorString(static_cast<ncclResult_t>(root.result)), __FILE__, __LINE__);
  GRIDFLOW_NCCL_CHECK(ncclCommInitRank(&m_comm, m_size, root.id, m_rank));
}

NcclComm::~NcclComm() {
  if (m_comm) ncclCommDestroy(m_comm);  // a destructor cannot report; NCCL logs its own failures
}

void NcclComm::connect(const std::vector<int>& peers, std::size_t bytes) const {
  if (peers.empty()) return;
  mesh::Stream stream;
  mesh::Buffer send(bytes, mesh::MemorySpace::device), recv(bytes * peers.size(), mesh::MemorySpace::device);
  GRIDFLOW_NCCL_CHECK(ncclGroupStart());
  try {
    for (std::size_t p = 0; p < peers.size(); ++p) {
      GRIDFLOW_NCCL_CHECK(ncclRecv(static_cast<std::byte*>(recv.data()) + p * bytes, bytes, ncclUint8, peers[p], m_comm,
                                   stream.get()));
      GRIDFLOW_NCCL_CHECK(ncclSend(send.data(), bytes, ncclUint8, peers[p], m_comm, stream.get()));
    }
  } catch (...) {
    ncclGroupEnd();
    throw;
  }
  GRIDFLOW_NCCL_CHECK(ncclGroupEnd());
  mesh::synchronize(stream.get());
}

#else

NcclComm::NcclComm(MPI_Comm) {
  throw Error("the nccl halo transport needs NCCL, and this gridflow was built without it "
              "(install NCCL beside the CUDA Toolkit and reconfigure)");
}
NcclComm::~NcclComm() = default;
void NcclComm::connect(const std::vector<int>&, std::size_t) const {}

#endif

}  // namespace gridflow::halo
