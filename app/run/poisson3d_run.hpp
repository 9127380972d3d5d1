#pragma once
#include <mpi.h>

#include <string>

#include "app/deck/deck.hpp"

namespace gridflow::app {

/// Runs a poisson3d deck on the ranks of `comm`: sets up f and the boundary values, solves with the
/// deck's solver, reports the residual as it falls (and the error against poisson.exact when
/// given), writes the solution, and the residual history as HDF5 datasets beside it plus
/// <name>_residual.csv beside it. Collective; InputError for bad input. Returns the exit status: 0,
/// or the one an observer stopped the run with.
int run_poisson3d(Deck& deck, MPI_Comm comm, const std::string& summary_path = "");

}  // namespace gridflow::app
