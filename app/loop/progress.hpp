#pragma once
// Progress lines and the end-of-run summary, printed by rank 0.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace gridflow::app {

struct ProgressLine {
  std::int64_t step, steps;
  double time;
  double min, max;
  double cells_per_second;  ///< 0 while still in warm-up
  double eta_seconds;       ///< < 0 when unknown
};

std::string format_progress(const ProgressLine& p);

/// A table of phase -> seconds with the share of `total`.
std::string format_timer_table(const std::vector<std::pair<std::string, double>>& phases, double total);

}  // namespace gridflow::app
