#pragma once
// A 3D Poisson run from the deck: [grid], [poisson], [multigrid], `solver` and the shared keys,
// validated with the key in every message; the formulas compiled before anything runs.
#include "app/deck/deck.hpp"
#include "solver/poisson3d_config.hpp"

namespace gridflow::app {

/// Throws InputError naming the key.
solver::PoissonConfig read_poisson_config(Deck& deck);

}  // namespace gridflow::app
