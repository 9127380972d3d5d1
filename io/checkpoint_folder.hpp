#pragma once
// The checkpoints of a run in their folder: their names, which of them are kept, the newest.
// Temporary files (hidden ".NAME.partial") and other runs' checkpoints are never taken nor removed.
#include <mpi.h>

#include <cstdint>
#include <string>

namespace gridflow::io {

/// "<basename>_checkpoint_<step, 8 digits>.h5"
std::string checkpoint_file_name(const std::string& basename, std::int64_t step);

/// Rank 0 removes the checkpoints of `basename` in `directory` but the newest `keep` (by step).
/// Collective; a failure to remove is reported on stderr, not thrown (the run goes on).
void prune_checkpoints(const std::string& directory, const std::string& basename, int keep, MPI_Comm comm);

/// The newest checkpoint of `basename` in `directory` (highest step), or an empty string when
/// there is none. Collective: rank 0 looks, every rank gets its answer.
std::string latest_checkpoint(const std::string& directory, const std::string& basename, MPI_Comm comm);

}  // namespace gridflow::io
