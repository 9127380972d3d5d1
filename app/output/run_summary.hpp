#pragma once
// RunSummary: what a run did and how fast, written as JSON by rank 0 (`gridflow --summary FILE`)
// so benchmarks and scaling studies read figures instead of scraping the progress lines.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "app/output/ghost_width_report.hpp"

namespace gridflow::app {

struct RunSummary {
  std::string problem, precision, device, transport;
  int ranks = 1;
  std::vector<int> decomposition;
  std::vector<std::int64_t> grid_points;
  GhostWidthReport ghost_width;  ///< its entries, under their names (halo.width.requested, ...)
  std::int64_t steps = 0, warmup_steps = 0;
  std::int64_t tuning_steps = 0;  ///< steps (sweeps) the on-line tuning took, part of `steps`
  double wall_seconds = 0;      ///< whole run, set-up and output included
  double stepping_seconds = 0;  ///< steps after warm-up, output and progress reductions excluded
  double cell_updates_per_second = 0;
  std::vector<std::pair<std::string, double>> phases;  ///< seconds, max over ranks
};

/// Writes `summary` with the code version to `path` (throws Error when it cannot).
void write_summary_json(const RunSummary& summary, const std::string& path);

}  // namespace gridflow::app
