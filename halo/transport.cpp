#include "halo/transport.hpp"

#include "gridflow/config.hpp"
#include "halo/gpu_binding.hpp"
#include "mesh/check.hpp"

namespace gridflow::halo {

std::string to_string(Transport t) { return t == Transport::mpi ? "mpi" : "nccl"; }

std::string to_string(TransportChoice c) {
  switch (c) {
    case TransportChoice::mpi: return "mpi";
    case TransportChoice::nccl: return "nccl";
    case TransportChoice::automatic: return "auto";
  }
  return "?";
}

TransportChoice parse_transport(std::string_view text) {
  if (text == "mpi") return TransportChoice::mpi;
  if (text == "nccl") return TransportChoice::nccl;
  if (text == "auto") return TransportChoice::automatic;
  throw InputError("key 'halo.transport': \"" + std::string(text) + "\" is not \"mpi\", \"nccl\" or \"auto\"");
}

bool nccl_available() { return GRIDFLOW_HAVE_NCCL != 0; }

Transport resolve_transport(TransportChoice choice, mesh::MemorySpace space, MPI_Comm comm) {
  if (choice == TransportChoice::mpi) return Transport::mpi;
  const bool device = space == mesh::MemorySpace::device;
  if (choice == TransportChoice::nccl) {
    if (!nccl_available())
      throw InputError("key 'halo.transport': \"nccl\" asked for, but this gridflow was built without NCCL; use \"mpi\" or \"auto\"");
    if (!device)
      throw InputError("key 'halo.transport': \"nccl\" moves device memory, but the fields are in host memory "
                       "(device = cpu); use \"mpi\" or \"auto\"");
    if (ranks_share_gpu(comm))
      throw InputError("key 'halo.transport': \"nccl\" needs one GPU per rank, but some ranks share a GPU "
                       "(device_sharing); use \"mpi\" or \"auto\"");
    return Transport::nccl;
  }
  int size = 1;
  GRIDFLOW_MPI_CHECK(MPI_Comm_size(comm, &size));
  if (device && nccl_available() && size > 1 && !ranks_share_gpu(comm)) return Transport::nccl;
  return Transport::mpi;
}

}  // namespace gridflow::halo
