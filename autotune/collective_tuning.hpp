#pragma once
// Choosing one configuration of a search space on every rank of a communicator at once: from the
// cache (rank 0 looks it up and tells the others), or by measuring in lockstep (every rank runs
// every candidate together; a candidate costs the slowest rank's time), or the defaults. Every
// rank ends with the same choice, so ranks never run different ghost widths or launch shapes.
#include <mpi.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "autotune/cache_key.hpp"
#include "autotune/evaluator.hpp"
#include "autotune/report.hpp"
#include "autotune/search_space.hpp"
#include "autotune/timer.hpp"
#include "autotune/tuning_options.hpp"

namespace gridflow::autotune {

struct TuningRequest {
  TuningOptions options;
  bool remeasure = false;  ///< measure even when the cache has an entry (gridflow tune)
  bool must_store = false; ///< a cache that cannot be written is an error, not a warning
  autotune::CacheKey key;  ///< rank 0's key is the one looked up and stored
  /// Evaluator runs affordable (nullopt: no limit). Called collectively, only when about to
  /// measure, so an estimate that itself takes steps costs nothing on a cache hit.
  std::function<std::optional<std::size_t>()> affordable_runs = [] { return std::optional<std::size_t>{}; };
};

struct TuningOutcome {
  autotune::Configuration chosen;                 ///< the same on every rank
  std::optional<autotune::TuningReport> report;   ///< nullopt when nothing was measured or cached
  std::string note;                               ///< why there is no report

  /// The report's text, or one line with the note.
  std::string text(const std::string& kernel) const;
  /// The report's attributes, or "autotune.kernel" and "autotune.note".
  autotune::ReportAttributes attributes(const std::string& kernel) const;
};

/// Collective over `comm`: every rank passes the same space, request and an evaluator of its own
/// part; `local_timer` times this rank's part of a run.
TuningOutcome choose_collectively(const TuningRequest& request, const autotune::SearchSpace& space,
                                  autotune::Evaluator& evaluator, std::unique_ptr<autotune::Timer> local_timer,
                                  MPI_Comm comm);

}  // namespace gridflow::autotune
