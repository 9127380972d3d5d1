#pragma once
// Whether and how a run tunes its kernels and ghost width (the deck's [tuning] keys).
#include <cstddef>
#include <string>

#include "autotune/measurement.hpp"

namespace gridflow::autotune {

enum class TuningMode {
  online,  ///< cache hit, else measure during the first real steps and store the winner
  cached,  ///< cache hit, else the defaults; never measures
  off,     ///< the defaults
};

enum class TuningStrategy {
  automatic,   ///< exhaustive when the legal configurations fit the budget, local search otherwise
  exhaustive,  ///< every legal configuration (fewer when the run is too short)
  local,       ///< coordinate descent within the budget
};

struct TuningOptions {
  TuningMode mode = TuningMode::online;
  std::string cache;  ///< cache file; empty = autotune::default_cache_path(), resolved when first needed
  TuningStrategy strategy = TuningStrategy::automatic;
  std::size_t budget = 30;  ///< configurations tried at most by the local search (and by "auto")
  int repeats = 3;          ///< timed runs per configuration; the median is its cost

  /// One warm-up run, `repeats` timed runs, one re-check round of winner and runner-up.
  MeasurementPolicy policy() const;
};

std::string to_string(TuningMode mode);
std::string to_string(TuningStrategy strategy);

}  // namespace gridflow::autotune
