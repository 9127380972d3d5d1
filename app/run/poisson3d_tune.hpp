#pragma once
// gridflow tune on a poisson3d deck: with solver = "jacobi" the problem is set up as for a run,
// Jacobi sweeps are tuned for this rank's grid (device: launch shape; several ranks: exchange
// width) without solving to the end or writing output, and the choice is stored in the tuning
// cache. The other Poisson solvers have nothing tunable yet: it says so.
#include <mpi.h>

#include "app/deck/deck.hpp"

namespace gridflow::app {

/// Collective over `comm`. Prints the report (or why there is nothing to tune) on rank 0. Throws
/// InputError, the same on every rank, for bad input or a cache that cannot be written.
void tune_poisson3d(Deck& deck, MPI_Comm comm);

}  // namespace gridflow::app
