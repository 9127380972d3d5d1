#include "autotune/report.hpp"

#include <cstdio>

#include <nlohmann/json.hpp>

namespace gridflow::autotune {

namespace {
std::string format(const char* pattern, double value) {
  char text[64];
  std::snprintf(text, sizeof text, pattern, value);
  return text;
}
std::string milliseconds(double seconds) { return format("%.4g ms", 1e3 * seconds); }
}  // namespace

std::optional<double> TuningReport::speedup() const {
  if (!default_median_s || chosen_median_s <= 0) return std::nullopt;
  return *default_median_s / chosen_median_s;
}

std::string TuningReport::to_text() const {
  const auto time = [&](double seconds) { return milliseconds(seconds) + (per.empty() ? "" : " per " + per); };
  std::string text = "autotune " + kernel + ": " + chosen.to_string() + " at " + time(chosen_median_s);
  if (const auto s = speedup())
    text += ", " + format("%.3g", *s) + "x the default " + default_config.to_string() + " (" +
            time(*default_median_s) + ")";
  else
    text += ", the default " + default_config.to_string() + " was rejected";
  text += '\n';
  if (from_cache) {
    text += "  from the tuning cache (" + strategy + ", " + std::to_string(evaluations) + " configurations tried then)\n";
  } else {
    text += "  " + strategy + ": " + std::to_string(evaluations) + " configurations tried (" +
            std::to_string(rejected.size()) + " skipped), " + std::to_string(timed_runs) + " timed runs, " +
            format("%.3g s", wall_s) + '\n';
  }
  for (const auto& r : rejected) text += "  skipped " + r.config.to_string() + ": " + r.reason + '\n';
  return text;
}

nlohmann::json TuningReport::to_json() const {
  nlohmann::json skipped = nlohmann::json::array();
  for (const auto& r : rejected) skipped.push_back({{"config", r.config}, {"reason", r.reason}});
  nlohmann::json j = {{"kernel", kernel},
                      {"strategy", strategy},
                      {"from_cache", from_cache},
                      {"chosen", chosen},
                      {"chosen_median_s", chosen_median_s},
                      {"default", default_config},
                      {"default_median_s", nullptr},
                      {"speedup", nullptr},
                      {"evaluations", evaluations},
                      {"timed_runs", timed_runs},
                      {"skipped", skipped},
                      {"wall_s", wall_s}};
  if (default_median_s) j["default_median_s"] = *default_median_s;
  if (const auto s = speedup()) j["speedup"] = *s;
  if (!per.empty()) j["per"] = per;
  return j;
}

ReportAttributes TuningReport::to_attributes(const std::string& prefix) const {
  ReportAttributes a = {{prefix + "kernel", kernel},
                        {prefix + "strategy", strategy},
                        {prefix + "from_cache", from_cache},
                        {prefix + "chosen", chosen.to_string()},
                        {prefix + "median_s", chosen_median_s},
                        {prefix + "default", default_config.to_string()}};
  for (const auto& [name, value] : chosen.values()) a.emplace_back(prefix + "chosen." + name, std::int64_t{value});
  if (default_median_s) a.emplace_back(prefix + "default_median_s", *default_median_s);
  if (const auto s = speedup()) a.emplace_back(prefix + "speedup", *s);
  a.emplace_back(prefix + "evaluations", static_cast<std::int64_t>(evaluations));
  a.emplace_back(prefix + "timed_runs", static_cast<std::int64_t>(timed_runs));
  a.emplace_back(prefix + "skipped", static_cast<std::int64_t>(rejected.size()));
  for (std::size_t i = 0; i < rejected.size(); ++i)
    a.emplace_back(prefix + "skipped." + std::to_string(i), rejected[i].config.to_string() + ": " + rejected[i].reason);
  a.emplace_back(prefix + "wall_s", wall_s);
  if (!per.empty()) a.emplace_back(prefix + "per", per);
  return a;
}

}  // namespace gridflow::autotune
