#pragma once
// gridflow tune on a heat2d deck: the problem is set up as for a run, the heat solver is tuned for
// this rank's grid (device: launch shape; several ranks: ghost width) without the time loop or any
// output, and the choice is stored in the tuning cache.
#include <mpi.h>

#include "app/deck/deck.hpp"

namespace gridflow::app {

/// Collective over `comm`. Prints the report (or why there is nothing to tune) on rank 0. Throws
/// InputError, the same on every rank, for bad input or a cache that cannot be written.
void tune_heat2d(Deck& deck, MPI_Comm comm);

}  // namespace gridflow::app
