#pragma once
// The memory check a run makes at set-up, before it allocates its fields: each rank's estimated
// need (solver::MemoryNeed) against what its node has available in host memory (MemAvailable, or
// the cgroup's limit when lower), shared by the ranks of the node, and against what its GPU has
// free, shared by the ranks on that GPU. A run that would not fit is refused with the number of
// ranks or GPUs it needs, instead of failing in an allocation or being killed half-way.
#include <mpi.h>

#include <optional>

#include "mesh/memory_space.hpp"
#include "solver/memory_need.hpp"

namespace gridflow::app {

/// Bytes available to new allocations on this node: MemAvailable of /proc/meminfo, or the
/// cgroup's memory.max less its memory.current when that is lower; nullopt when neither is known.
std::optional<double> host_memory_available();

/// Collective over `comm`: InputError on every rank, the same message, when the ranks of a node
/// need more host memory together than the node has available, or (space device) the ranks of a
/// GPU more than it has free: "needs about X GiB per rank (host), Y GiB available: use at least N
/// ranks (or GPUs)". Nothing is allocated.
void require_memory(const solver::MemoryNeed& need, mesh::MemorySpace space, MPI_Comm comm);

}  // namespace gridflow::app
