#include "solver/tuning_options.hpp"

#include "mesh/check.hpp"

namespace gridflow::solver {

autotune::MeasurementPolicy TuningOptions::policy() const {
  autotune::MeasurementPolicy p;
  p.warmup_runs = 1;
  p.repeats = repeats;
  // On-line every run costs real steps: one round of winner against runner-up catches a close call.
  p.recheck_rounds = 1;
  return p;
}

TuningOptions read_tuning_options(Deck& deck) {
  TuningOptions o;
  const auto mode = deck.string("tuning.mode", "online", {"online", "cached", "off"});
  o.mode = mode == "online" ? TuningMode::online : mode == "cached" ? TuningMode::cached : TuningMode::off;
  // Read only when given: the default path depends on the environment and is resolved on use.
  if (deck.has("tuning.cache")) {
    o.cache = deck.string("tuning.cache");
    if (o.cache.empty()) throw InputError("key 'tuning.cache': must not be empty (leave it out for the default cache)");
  }
  const auto strategy = deck.string("tuning.strategy", "auto", {"auto", "exhaustive", "local"});
  o.strategy = strategy == "auto"         ? TuningStrategy::automatic
               : strategy == "exhaustive" ? TuningStrategy::exhaustive
                                          : TuningStrategy::local;
  const auto budget = deck.integer("tuning.budget", 30);
  if (budget < 2 || budget > 100000)
    throw InputError("key 'tuning.budget': " + std::to_string(budget) + " is not in 2..100000 (configurations to try)");
  o.budget = static_cast<std::size_t>(budget);
  const auto repeats = deck.integer("tuning.repeats", 3);
  if (repeats < 1 || repeats > 1000)
    throw InputError("key 'tuning.repeats': " + std::to_string(repeats) + " is not in 1..1000 (timed runs per configuration)");
  o.repeats = static_cast<int>(repeats);
  return o;
}

std::string to_string(TuningMode mode) {
  switch (mode) {
    case TuningMode::online: return "online";
    case TuningMode::cached: return "cached";
    case TuningMode::off: break;
  }
  return "off";
}

std::string to_string(TuningStrategy strategy) {
  switch (strategy) {
    case TuningStrategy::automatic: return "auto";
    case TuningStrategy::exhaustive: return "exhaustive";
    case TuningStrategy::local: break;
  }
  return "local";
}

}  // namespace gridflow::solver
