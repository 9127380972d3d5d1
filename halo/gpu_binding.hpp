#pragma once
// One MPI rank per GPU: ranks on a node take the node's GPUs in node-local rank order.
#include <mpi.h>

#include <string>

namespace gridflow::halo {

/// Collective over `comm`. Makes GPU (node-local rank % GPUs visible) current for this host
/// thread and returns its index. Ranks on one node are found with MPI_COMM_TYPE_SHARED.
/// Throws InputError, on every rank of `comm` alike so that none is left waiting in a later
/// collective, when some node sees no GPU, or runs more ranks than the distinct GPUs its ranks
/// are bound to and `allow_sharing` is false. GPUs are told apart by UUID, so sites that give
/// each rank its own single visible GPU (jobs/gpu_bind.sh) pass. The message names the node.
int bind_gpu_by_local_rank(MPI_Comm comm, bool allow_sharing);

/// Why ranks on node `node` cannot be bound, or "" when they can: the rule
/// bind_gpu_by_local_rank applies, without MPI or CUDA.
std::string gpu_binding_problem(int local_ranks, int gpus, bool allow_sharing, const std::string& node);

/// Collective over `comm`: whether two of its ranks have the same GPU current (compares device
/// UUIDs, so it holds across nodes). False without CUDA. Every rank gets the same answer.
bool ranks_share_gpu(MPI_Comm comm);

}  // namespace gridflow::halo
