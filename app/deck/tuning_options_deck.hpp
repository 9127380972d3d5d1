#pragma once
// The [tuning] deck keys.
#include "app/deck/deck.hpp"
#include "autotune/tuning_options.hpp"

namespace gridflow::app {

/// Reads tuning.mode, tuning.cache, tuning.strategy, tuning.budget and tuning.repeats; throws
/// InputError naming the key for a bad value.
autotune::TuningOptions read_tuning_options(Deck& deck);

}  // namespace gridflow::app
