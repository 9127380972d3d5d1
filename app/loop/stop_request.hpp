#pragma once
// StopRequest: an observer's wish to end a run before its own end (a signal, a wall-clock limit),
// and the agreement of the ranks on it and on raised flags at a step boundary, so that one rank's
// request or flag acts on every rank at the same step.
#include <mpi.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gridflow::app {

/// The exit status of a run that stopped early after writing a checkpoint (EX_TEMPFAIL of
/// sysexits.h): "resubmit with restart=latest". Job scripts test for it.
constexpr int exit_status_checkpointed = 75;

/// Why a run ends early, and the exit status the executable then returns.
struct StopRequest {
  std::string reason;
  int exit_status = 0;
  /// Stopped with a checkpoint, to be continued: the state at this step is no result of the run.
  bool checkpointed() const { return exit_status == exit_status_checkpointed; }
};

/// The line a run ends with when it stopped early: the step, the reason and, after a checkpoint,
/// how to continue ("resubmit with restart=latest").
std::string stop_line(std::int64_t step, const StopRequest& stop);

/// What every rank holds after agree_at_boundary.
struct BoundaryAgreement {
  std::optional<StopRequest> stop;  ///< the request of the lowest rank that made one, if any did
  std::vector<bool> flags;          ///< flag k is raised when it was raised on any rank
};

/// Collective over `comm`; `local_flags` has the same length on every rank. One MPI_Allreduce of
/// a few integers, and a broadcast of the reason only when some rank asks to stop.
BoundaryAgreement agree_at_boundary(const std::optional<StopRequest>& local_stop, const std::vector<bool>& local_flags,
                                    MPI_Comm comm);

}  // namespace gridflow::app
