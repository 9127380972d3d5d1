#pragma once
// The deck keys every problem shares: precision, device, decomposition, halo, output, progress,
// tuning.
#include "app/deck/deck.hpp"
#include "solver/run_options.hpp"

namespace gridflow::app {

/// Reads the shared keys for a problem of `dim` dimensions; throws InputError naming the key.
solver::RunOptions read_run_options(Deck& deck, int dim);

}  // namespace gridflow::app
