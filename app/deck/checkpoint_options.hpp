#pragma once
// CheckpointOptions: the [checkpoint] keys, restart=, and the run's time limit (run.wall_limit,
// run.wall_margin), read from the deck with the checks a user needs.
#include <mpi.h>

#include <cstdint>
#include <string>

#include "app/deck/deck.hpp"

namespace gridflow::app {

struct CheckpointOptions {
  std::int64_t every_steps = 0;  ///< checkpoint.every as a step count; 0: not by steps
  double every_seconds = 0;      ///< checkpoint.every as a duration ("30m"); 0: not by the clock
  int keep = 2;                  ///< checkpoint.keep: how many of the newest are kept
  std::string dir;               ///< checkpoint.dir; the output folder by default
  std::string restart;           ///< restart: "" (a fresh run), a checkpoint's path, "latest", or "auto" (latest if any)
  double wall_limit = 0;         ///< run.wall_limit in seconds; 0: none given
  double wall_margin_seconds = 120;  ///< run.wall_margin as a duration
  double wall_margin_fraction = 0;   ///< run.wall_margin as a fraction (0..1) of the time the run has

  /// The margin before a limit of `seconds`: the duration, or the fraction of it.
  double margin_for(double seconds) const { return wall_margin_fraction > 0 ? wall_margin_fraction * seconds : wall_margin_seconds; }
};

/// Reads checkpoint.every, checkpoint.keep, checkpoint.dir, restart, run.wall_limit and
/// run.wall_margin; InputError naming the key for a bad value. `output_dir`: the default folder.
CheckpointOptions read_checkpoint_options(Deck& deck, const std::string& output_dir);

/// Collective; rank 0 looks: InputError naming checkpoint.dir when it is something other than a
/// folder, or cannot be made because a part of its path is a file, or is not writable. Nothing is
/// created (a run may never write a checkpoint). Before any work, so that a checkpoint due late
/// in the run cannot fail then and lose the run.
void check_checkpoint_dir(const CheckpointOptions& options, MPI_Comm comm);

}  // namespace gridflow::app
