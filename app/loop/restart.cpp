#include "app/loop/restart.hpp"

#include <algorithm>
#include <map>
#include <type_traits>

#include "gridflow/config.hpp"
#include "io/output_series.hpp"
#include "mesh/check.hpp"

namespace gridflow::app {

namespace {

bool is_run_control(const std::string& key) {
  static const char* const prefixes[] = {"output.", "progress.", "run.", "checkpoint.", "tuning.", "halo.", "expressions."};
  static const char* const keys[] = {"deck",       "restart",       "device",      "device_sharing",         "decomposition",
                                     "heat.steps", "heat.t_end",    "heat.safety", "poisson.max_iterations", "poisson.tolerance",
                                     "poisson.exact"};
  for (const char* p : prefixes)
    if (key.rfind(p, 0) == 0) return true;
  return std::find(std::begin(keys), std::end(keys), key) != std::end(keys);
}

std::string text_of(const io::AttributeValue& value) {
  return std::visit(
      [](const auto& v) -> std::string {
        using V = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<V, std::string>) return "\"" + v + "\"";
        else if constexpr (std::is_same_v<V, double>) return exact_decimal(v);
        else if constexpr (std::is_same_v<V, bool>) return v ? "true" : "false";
        else if constexpr (std::is_same_v<V, std::int64_t>) return std::to_string(v);
        else {
          std::string out = "[";
          for (std::size_t i = 0; i < v.size(); ++i) {
            if (i) out += ", ";
            if constexpr (std::is_same_v<V, std::vector<double>>) out += exact_decimal(v[i]);
            else if constexpr (std::is_same_v<V, std::vector<std::int64_t>>) out += std::to_string(v[i]);
            else out += "\"" + v[i] + "\"";
          }
          return out + "]";
        }
      },
      value);
}

}  // namespace

std::vector<std::pair<std::string, std::string>> physics_keys(const Deck& deck) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [key, value] : deck.used_attributes())
    if (!is_run_control(key)) out.emplace_back(key, text_of(value));
  return out;
}

void require_same_physics(const io::CheckpointContent& checkpoint, const std::vector<std::pair<std::string, std::string>>& keys,
                          const std::string& path) {
  const std::map<std::string, std::string> then(checkpoint.keys.begin(), checkpoint.keys.end());
  const std::map<std::string, std::string> now(keys.begin(), keys.end());
  const auto refuse = [&](const std::string& key, const std::string& was, const std::string& is) {
    throw InputError("key '" + key + "': the deck has " + is + " but the checkpoint " + path + " was written with " + was +
                     "; a restart must keep the grid and the physics (output and run-control keys may change)");
  };
  for (const auto& [key, value] : now) {
    const auto it = then.find(key);
    if (it == then.end()) refuse(key, "no such key", value);
    if (it->second != value) refuse(key, it->second, value);
  }
  for (const auto& [key, value] : then)
    if (!now.count(key)) refuse(key, value, "no such key");
}

std::optional<std::string> restart_path(const CheckpointOptions& options, const std::string& basename, MPI_Comm comm) {
  if (options.restart.empty()) return std::nullopt;
  if (options.restart != "latest" && options.restart != "auto") return options.restart;
  const std::string found = io::latest_checkpoint(options.dir, basename, comm);
  if (found.empty() && options.restart == "auto") return std::nullopt;  // the first job of a chain
  if (found.empty())
    throw InputError("key 'restart': 'latest' found no checkpoint " + basename + "_checkpoint_*.h5 in '" + options.dir + "' (checkpoint.dir; the output folder by default)");
  return found;
}

io::CheckpointContent base_content(const Deck& deck, const std::string& problem, const std::string& precision, int ranks,
                                   bool on_device) {
  io::CheckpointContent c;
  c.problem = problem;
  c.precision = precision;
  c.ranks = ranks;
  c.memory_space = on_device ? "device" : "host";
  c.code_version = std::string(GRIDFLOW_VERSION) + " (" + GRIDFLOW_GIT_HASH + ")";
  c.deck = deck.used_toml();
  c.keys = physics_keys(deck);
  return c;
}

void store_series(const std::vector<io::XdmfStep>& steps, io::CheckpointContent& content) {
  std::vector<double> step, time;
  for (const auto& s : steps) {
    step.push_back(static_cast<double>(s.step));
    time.push_back(s.time);
  }
  content.arrays.emplace_back("series_step", std::move(step));
  content.arrays.emplace_back("series_time", std::move(time));
}

std::vector<io::XdmfStep> stored_series(const io::CheckpointContent& content, const std::string& basename,
                                        const std::vector<std::string>& fields) {
  std::vector<io::XdmfStep> out;
  const auto* step = content.array("series_step");
  const auto* time = content.array("series_time");
  if (!step || !time || step->size() != time->size()) return out;
  for (std::size_t i = 0; i < step->size(); ++i) {
    const auto k = static_cast<long long>((*step)[i]);
    out.push_back({k, (*time)[i], io::output_file_name(basename, k), fields});
  }
  return out;
}

}  // namespace gridflow::app
