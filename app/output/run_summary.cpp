#include "app/output/run_summary.hpp"

#include <fstream>
#include <nlohmann/json.hpp>

#include "gridflow/config.hpp"
#include "mesh/check.hpp"

namespace gridflow::app {

void write_summary_json(const RunSummary& s, const std::string& path) {
  nlohmann::json phases = nlohmann::json::object();
  for (const auto& [name, seconds] : s.phases) phases[name] = seconds;
  nlohmann::json j = {{"version", GRIDFLOW_VERSION},
                            {"commit", GRIDFLOW_GIT_HASH},
                            {"problem", s.problem},
                            {"precision", s.precision},
                            {"device", s.device},
                            {"transport", s.transport},
                            {"ranks", s.ranks},
                            {"decomposition", s.decomposition},
                            {"grid_points", s.grid_points},
                            {"steps", s.steps},
                            {"warmup_steps", s.warmup_steps},
                            {"tuning_steps", s.tuning_steps},
                            {"wall_seconds", s.wall_seconds},
                            {"stepping_seconds", s.stepping_seconds},
                            {"cell_updates_per_second", s.cell_updates_per_second},
                            {"phases", phases}};
  for (const auto& [name, value] : s.ghost_width.entries()) j[name] = value;
  std::ofstream out(path);
  out << j.dump(2) << '\n';
  out.close();
  if (!out) throw Error("cannot write the run summary to '" + path + "'");
}

}  // namespace gridflow::app
