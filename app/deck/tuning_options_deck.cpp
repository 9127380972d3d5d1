#include "app/deck/tuning_options_deck.hpp"

#include "mesh/check.hpp"

namespace gridflow::app {

using autotune::TuningMode;
using autotune::TuningOptions;
using autotune::TuningStrategy;

autotune::TuningOptions read_tuning_options(Deck& deck) {
  autotune::TuningOptions o;
  const auto mode = deck.string("tuning.mode", "online", {"online", "cached", "off"});
  o.mode = mode == "online" ? autotune::TuningMode::online : mode == "cached" ? autotune::TuningMode::cached : autotune::TuningMode::off;
  // Read only when given: the default path depends on the environment and is resolved on use.
  if (deck.has("tuning.cache")) {
    o.cache = deck.string("tuning.cache");
    if (o.cache.empty()) throw InputError("key 'tuning.cache': must not be empty (leave it out for the default cache)");
  }
  const auto strategy = deck.string("tuning.strategy", "auto", {"auto", "exhaustive", "local"});
  o.strategy = strategy == "auto"         ? autotune::TuningStrategy::automatic
               : strategy == "exhaustive" ? autotune::TuningStrategy::exhaustive
                                          : autotune::TuningStrategy::local;
  const auto budget = deck.integer("tuning.budget", 30, IntegerRange::of<std::size_t>());
  if (budget < 2 || budget > 100000)
    throw InputError("key 'tuning.budget': " + std::to_string(budget) + " is not in 2..100000 (configurations to try)");
  o.budget = static_cast<std::size_t>(budget);
  const auto repeats = deck.integer("tuning.repeats", 3, IntegerRange::of<int>());
  if (repeats < 1 || repeats > 1000)
    throw InputError("key 'tuning.repeats': " + std::to_string(repeats) + " is not in 1..1000 (timed runs per configuration)");
  o.repeats = static_cast<int>(repeats);
  return o;
}

}  // namespace gridflow::app
