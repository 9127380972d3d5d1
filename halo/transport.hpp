#pragma once
// How halo messages travel, and how the deck's halo.transport = "mpi" | "nccl" | "auto" picks it.
#include <mpi.h>

#include <string>
#include <string_view>

#include "mesh/memory_space.hpp"

namespace gridflow::halo {

/// mpi: MPI_Isend/Irecv; device fields are staged through pinned host buffers, because the MPI
///      gridflow is built against need not be CUDA-aware.
/// nccl: ncclSend/ncclRecv between device buffers, queued on the exchange's stream.
enum class Transport { mpi, nccl };

/// What the deck asked for: a transport, or "auto" to let resolve_transport choose.
enum class TransportChoice { mpi, nccl, automatic };

std::string to_string(Transport t);
std::string to_string(TransportChoice c);  ///< "mpi", "nccl" or "auto", as in the deck

/// Parses the value of the deck key halo.transport. Throws InputError naming the key otherwise.
TransportChoice parse_transport(std::string_view text);

/// True when this gridflow was built with NCCL.
bool nccl_available();

/// The transport for fields in `space` exchanged over `comm`. Collective over `comm` (it compares
/// the ranks' GPUs), with the same answer, or the same InputError, on every rank:
///   mpi  -> mpi;
///   nccl -> nccl, or InputError when NCCL is not built in, the fields are in host memory, or
///           two ranks share a GPU (NCCL needs one GPU per rank);
///   auto -> nccl for device fields when NCCL is built in, `comm` has more than one rank and no
///           two ranks share a GPU; mpi otherwise.
/// For device fields, call it after binding GPUs (bind_gpu_by_local_rank).
Transport resolve_transport(TransportChoice choice, mesh::MemorySpace space, MPI_Comm comm);

}  // namespace gridflow::halo
