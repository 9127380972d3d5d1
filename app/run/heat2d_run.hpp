#pragma once
#include <mpi.h>

#include <string>

#include "app/deck/deck.hpp"

namespace gridflow::app {

/// Runs a heat2d deck on the ranks of `comm`: reads and checks the deck, steps, reports progress,
/// writes the output series, and, when `summary_path` is not empty, the run summary as JSON.
/// Collective. Throws InputError (same on every rank) for bad input. Returns the exit status: 0,
/// or the one an observer stopped the run with.
int run_heat2d(Deck& deck, MPI_Comm comm, const std::string& summary_path = "");

}  // namespace gridflow::app
