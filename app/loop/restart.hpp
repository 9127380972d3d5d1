#pragma once
// What a run shares between writing a checkpoint and restarting from one: which deck keys must
// agree (grid and physics; output and run-control keys may change), the checkpoint to open for
// restart=PATH or restart=latest, the base content every checkpoint has, and the output series so
// far as the checkpoint stores it.
#include <mpi.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/deck/checkpoint_options.hpp"
#include "app/deck/deck.hpp"
#include "io/checkpoint_file.hpp"
#include "io/xdmf.hpp"

namespace gridflow::app {

/// The keys of the deck as used that fix the numbers a run computes, with their values as text
/// (numbers to 17 digits): all but output.*, progress.*, run.*, checkpoint.*, tuning.*, halo.*,
/// device, device_sharing, decomposition, restart and the keys that only say when a run ends
/// (heat.steps, heat.t_end, heat.safety, poisson.max_iterations, poisson.tolerance, poisson.exact).
std::vector<std::pair<std::string, std::string>> physics_keys(const Deck& deck);

/// InputError naming the first key whose value differs between the checkpoint's deck and `keys`
/// (or that only one of them has), with both values.
void require_same_physics(const io::CheckpointContent& checkpoint, const std::vector<std::pair<std::string, std::string>>& keys,
                          const std::string& path);

/// The checkpoint restart= names: the path as given, or for "latest" and "auto" the newest
/// checkpoint of `basename` in the checkpoint folder; nullopt for a fresh start (no restart=, or
/// "auto" finding none). InputError when "latest" finds none. Collective.
std::optional<std::string> restart_path(const CheckpointOptions& options, const std::string& basename, MPI_Comm comm);

/// What every checkpoint holds besides the solver's own state.
io::CheckpointContent base_content(const Deck& deck, const std::string& problem, const std::string& precision, int ranks,
                                   bool on_device);

/// The output steps so far as arrays of a checkpoint ("series_step", "series_time"), and back
/// (file names rebuilt from `basename`, the fields named `fields`).
void store_series(const std::vector<io::XdmfStep>& steps, io::CheckpointContent& content);
std::vector<io::XdmfStep> stored_series(const io::CheckpointContent& content, const std::string& basename,
                                        const std::vector<std::string>& fields);

}  // namespace gridflow::app
