#pragma once
// The tuner's entry points: tune() measures and decides; find_or_tune() first asks the cache
// and keeps what tune() found.
#include <string>

#include "autotune/evaluator.hpp"
#include "autotune/measurement.hpp"
#include "autotune/report.hpp"
#include "autotune/search_space.hpp"
#include "autotune/strategy.hpp"
#include "autotune/timer.hpp"
#include "autotune/tuning_cache.hpp"

namespace gridflow::autotune {

/// Times the default configuration, lets `strategy` search, then re-times the two fastest
/// alternately for policy.recheck_rounds rounds and keeps the one with the lower median over all
/// its runs. Candidates that fail their check or throw gridflow::Error are skipped and listed in
/// the report. Throws gridflow::Error when the default configuration is illegal or no
/// configuration passed its check. Blocks for the whole tuning.
TuningReport tune(const std::string& kernel, const SearchSpace& space, Evaluator& evaluator, Timer& timer,
                  Strategy& strategy, const MeasurementPolicy& policy = {});

/// The cached configuration for `key` when there is one that is still legal in `space` and passes
/// evaluator.check (nothing is timed); otherwise tune(key.kernel, ...) and store its choice.
TuningReport find_or_tune(TuningCache& cache, const CacheKey& key, const SearchSpace& space, Evaluator& evaluator,
                          Timer& timer, Strategy& strategy, const MeasurementPolicy& policy = {});

}  // namespace gridflow::autotune
