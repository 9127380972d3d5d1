#include "app/loop/progress.hpp"

#include <algorithm>
#include <string_view>

#include <fmt/format.h>

namespace gridflow::app {

std::string format_progress(const ProgressLine& p) {
  const int width = static_cast<int>(std::to_string(p.steps).size());
  std::string line = fmt::format("step {:>{}}/{}  t = {:.6e}  u in [{:.6e}, {:.6e}]", p.step, width, p.steps, p.time, p.min, p.max);
  if (p.cells_per_second > 0) line += fmt::format("  {:.3f} Gcell/s", p.cells_per_second * 1e-9);
  if (p.eta_seconds >= 0) line += fmt::format("  ETA {:.1f} s", p.eta_seconds);
  return line;
}

std::string format_timer_table(const std::vector<std::pair<std::string, double>>& phases, double total) {
  std::size_t width = std::string_view("phase (max over ranks)").size();
  for (const auto& phase : phases) width = std::max(width, phase.first.size());
  std::string t = fmt::format("  {:<{}} {:>12} {:>8}\n", "phase (max over ranks)", width, "seconds", "share");
  for (const auto& [name, seconds] : phases)
    t += fmt::format("  {:<{}} {:>12.4f} {:>7.1f}%\n", name, width, seconds, total > 0 ? 100.0 * seconds / total : 0.0);
  t += fmt::format("  {:<{}} {:>12.4f}\n", "total wall", width, total);
  return t;
}

}  // namespace gridflow::app
