#pragma once
// A 2D heat run from the deck: [grid], [heat] and the shared keys, validated with the key in every
// message; the formulas compiled (muParser) so a bad one is reported before anything runs.
#include "app/deck/deck.hpp"
#include "solver/heat2d_config.hpp"

namespace gridflow::app {

/// Throws InputError for a missing, mistyped or impossible value.
solver::HeatConfig read_heat_config(Deck& deck);

}  // namespace gridflow::app
