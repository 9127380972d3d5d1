#pragma once
// An input error found by rank 0 alone (a file it read, a cache it wrote), raised on every rank so
// that all of them stop together with the same message instead of some waiting in a collective.
#include <mpi.h>

#include <string>

namespace gridflow {

/// Collective over `comm`: every rank throws InputError(rank 0's message) when rank 0's is not
/// empty; returns on every rank otherwise.
void share_rank0_input_error(const std::string& rank0_message, MPI_Comm comm);

}  // namespace gridflow
