#pragma once
// An error found by rank 0 alone (a file it read or wrote, a cache it stored), raised on every rank
// so that all of them stop together with the same message instead of some waiting in a collective.
#include <mpi.h>

#include <string>

namespace gridflow {

/// Collective over `comm`: every rank throws InputError(rank 0's message) when rank 0's is not
/// empty; returns on every rank otherwise. For bad input (a file the user named).
void share_rank0_input_error(const std::string& rank0_message, MPI_Comm comm);

/// The same, throwing Error: for a failure of the run itself (a write, a rename).
void share_rank0_error(const std::string& rank0_message, MPI_Comm comm);

}  // namespace gridflow
