#pragma once
// TuningReport: what a tuning (or a cache hit) decided and what it cost, as a short text block,
// as JSON, and as flat (name, value) pairs for HDF5 attributes. Every alternative of ReportValue
// is one of io::AttributeValue's, so the solver can copy the pairs over without autotune
// depending on io.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "autotune/configuration.hpp"
#include "autotune/measurement.hpp"

namespace gridflow::autotune {

using ReportValue = std::variant<std::int64_t, double, bool, std::string>;
using ReportAttributes = std::vector<std::pair<std::string, ReportValue>>;

struct TuningReport {
  std::string kernel;                      ///< label, e.g. "stencil::heat::cuda"
  std::string strategy;                    ///< the strategy's name
  bool from_cache = false;                 ///< true: nothing was timed now, the figures are the cached ones
  Configuration chosen;                    ///< the configuration to run
  double chosen_median_s = 0;              ///< its median seconds per run (per `per` where set)
  Configuration default_config;            ///< the untuned configuration
  std::optional<double> default_median_s;  ///< its median; nullopt when it was rejected
  std::size_t evaluations = 0;             ///< configurations tried (measured or rejected)
  std::size_t timed_runs = 0;              ///< timed runs, re-checks included
  std::vector<Rejection> rejected;         ///< configurations skipped, with the reason
  double wall_s = 0;                       ///< tuning wall time, checks and warm-ups included
  std::string per;                         ///< what the medians time where not one run: "step" (on-line tuning)

  /// default_median_s / chosen_median_s (> 1 when tuning paid off); nullopt without a default median.
  std::optional<double> speedup() const;

  /// A few lines: the choice, its time and gain, the cost of tuning, one line per skipped configuration.
  std::string to_text() const;
  nlohmann::json to_json() const;
  /// "<prefix>kernel", "<prefix>chosen", "<prefix>chosen.<parameter>", "<prefix>median_s", ...
  ReportAttributes to_attributes(const std::string& prefix = "autotune.") const;
};

}  // namespace gridflow::autotune
