#include "app/deck/checkpoint_options.hpp"

#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>

#include "app/deck/duration.hpp"
#include "mesh/check.hpp"
#include "mesh/rank0_error.hpp"

namespace gridflow::app {

namespace {

constexpr double max_duration = 100.0 * 365 * 86400;

/// A duration key: "1h30m"-style text or a number of seconds; > 0.
double duration_key(Deck& deck, const std::string& key) {
  double seconds = 0;
  if (deck.is_string(key)) {
    const std::string text = deck.string(key);
    const auto parsed = parse_duration(text);
    if (!parsed) throw InputError("key '" + key + "': '" + text + "' is not a duration (write e.g. \"90s\", \"30m\", \"2h\", \"1h30m\")");
    seconds = *parsed;
  } else {
    seconds = deck.number(key);
  }
  if (!std::isfinite(seconds) || seconds <= 0) throw InputError("key '" + key + "': the duration must be positive");
  // 1e308 s was printed as -9223372036854775808 s (a double beyond the integers it is shown as).
  if (seconds > max_duration)
    throw InputError("key '" + key + "': " + exact_decimal(seconds) + " s is longer than 100 years (" +
                     std::to_string(static_cast<long long>(max_duration)) + " s)" +
                     (key == "run.wall_limit" ? "; leave the key out for no limit" : ""));
  return seconds;
}

}  // namespace

CheckpointOptions read_checkpoint_options(Deck& deck, const std::string& output_dir) {
  CheckpointOptions o;
  if (deck.has("checkpoint.every")) {
    if (deck.is_string("checkpoint.every")) {
      o.every_seconds = duration_key(deck, "checkpoint.every");
    } else {
      o.every_steps = deck.integer("checkpoint.every");
      if (o.every_steps < 1)
        throw InputError("key 'checkpoint.every': must be >= 1 steps, or a wall-clock duration such as \"30m\"");
    }
  }
  const auto keep = deck.integer("checkpoint.keep", 2, IntegerRange{1, 1000000});
  o.keep = static_cast<int>(keep);
  o.dir = deck.string("checkpoint.dir", output_dir);
  if (o.dir.empty()) throw InputError("key 'checkpoint.dir': must not be empty");
  o.restart = deck.string("restart", "");
  if (deck.has("restart") && o.restart.empty())
    throw InputError("key 'restart': give a checkpoint's path or \"latest\"");
  if (deck.has("run.wall_limit")) o.wall_limit = duration_key(deck, "run.wall_limit");
  if (deck.has("run.wall_margin")) {
    if (!deck.is_string("run.wall_margin") && deck.number("run.wall_margin") < 1) {
      o.wall_margin_fraction = deck.number("run.wall_margin");
      if (!(o.wall_margin_fraction > 0))
        throw InputError("key 'run.wall_margin': a fraction must be in (0, 1); a duration such as \"2m\" otherwise");
    } else {
      o.wall_margin_seconds = duration_key(deck, "run.wall_margin");
    }
  }
  return o;
}

void check_checkpoint_dir(const CheckpointOptions& options, MPI_Comm comm) {
  namespace fs = std::filesystem;
  int rank = 0;
  GRIDFLOW_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  std::string error;
  if (rank == 0) {
    const std::string key = "key 'checkpoint.dir': '" + options.dir + "' ";
    std::error_code ec;
    fs::path existing = fs::absolute(options.dir, ec);
    while (!ec && !fs::exists(existing, ec) && existing.has_parent_path() && existing != existing.parent_path())
      existing = existing.parent_path();  // the part of the path that exists: the folder is made in it
    if (ec) {
      error = key + "cannot be looked at: " + ec.message();
    } else if (!fs::is_directory(existing, ec)) {
      error = key + (existing == fs::absolute(options.dir) ? "exists and is not a folder"
                                                           : "cannot be made: '" + existing.string() + "' is not a folder");
    } else if (::access(existing.c_str(), W_OK | X_OK) != 0) {
      error = key + "is not writable: '" + existing.string() + "': " + std::strerror(errno);
    }
  }
  share_rank0_input_error(error, comm);
}

}  // namespace gridflow::app
