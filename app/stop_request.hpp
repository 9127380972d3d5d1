#pragma once
// StopRequest: an observer's wish to end a run before its own end (a signal, a wall-clock limit),
// and the agreement of the ranks on it and on raised flags at a step boundary, so that one rank's
// request or flag acts on every rank at the same step.
#include <mpi.h>

#include <optional>
#include <string>
#include <vector>

namespace gridflow::app {

/// Why a run ends early, and the exit status the executable then returns.
struct StopRequest {
  std::string reason;
  int exit_status = 0;
};

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
