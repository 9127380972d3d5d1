#pragma once
#include <mpi.h>

namespace gridflow::mesh {

/// Host threads per rank for OpenMP-parallel libraries (muParser's bulk evaluation): the node's
/// cores shared among the node's ranks, at least one, unless OMP_NUM_THREADS says otherwise.
/// Without it every rank would start a thread per core, and oversubscribed ranks spin-waiting on
/// each other's cores run orders of magnitude slower. Collective over `comm`. Returns the count.
int share_host_threads(MPI_Comm comm);

}  // namespace gridflow::mesh
