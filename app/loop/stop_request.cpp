#include "app/loop/stop_request.hpp"

#include "mesh/check.hpp"

namespace gridflow::app {

std::string stop_line(std::int64_t step, const StopRequest& stop) {
  std::string line = "stopped at step " + std::to_string(step) + ": " + stop.reason;
  if (stop.checkpointed())
    line += "; to continue, run the same deck again with restart=latest (exit status " + std::to_string(exit_status_checkpointed) + ")";
  return line;
}

BoundaryAgreement agree_at_boundary(const std::optional<StopRequest>& local_stop, const std::vector<bool>& local_flags,
                                    MPI_Comm comm) {
  int rank = 0, size = 1;
  GRIDFLOW_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  GRIDFLOW_MPI_CHECK(MPI_Comm_size(comm, &size));
  // Entry 0 is size - rank for a rank that asks to stop, so the maximum names the lowest such
  // rank; the flags follow as 0 or 1.
  std::vector<int> local(1 + local_flags.size()), agreed(local.size());
  local[0] = local_stop ? size - rank : 0;
  for (std::size_t k = 0; k < local_flags.size(); ++k) local[1 + k] = local_flags[k] ? 1 : 0;
  GRIDFLOW_MPI_CHECK(MPI_Allreduce(local.data(), agreed.data(), static_cast<int>(local.size()), MPI_INT, MPI_MAX, comm));

  BoundaryAgreement out;
  for (std::size_t k = 0; k < local_flags.size(); ++k) out.flags.push_back(agreed[1 + k] != 0);
  if (agreed[0] == 0) return out;
  const int speaker = size - agreed[0];
  int header[2] = {0, 0};  // exit status, reason length
  if (rank == speaker) {
    header[0] = local_stop->exit_status;
    header[1] = static_cast<int>(local_stop->reason.size());
  }
  GRIDFLOW_MPI_CHECK(MPI_Bcast(header, 2, MPI_INT, speaker, comm));
  std::string reason = rank == speaker ? local_stop->reason : std::string(static_cast<std::size_t>(header[1]), '\0');
  GRIDFLOW_MPI_CHECK(MPI_Bcast(reason.data(), header[1], MPI_CHAR, speaker, comm));
  out.stop = StopRequest{reason, header[0]};
  return out;
}

}  // namespace gridflow::app
