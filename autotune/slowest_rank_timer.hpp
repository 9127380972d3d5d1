#pragma once
// SlowestRankTimer: times a run that every rank of a communicator executes together, and returns
// the slowest rank's time on every rank. A halo exchange makes every rank wait for the slowest,
// so that time is the one a configuration costs; and since every rank then sees the same costs,
// a deterministic strategy proposes the same configurations in the same order on every rank,
// which collective runs (an exchange of the candidate's ghost width) require.
#include <mpi.h>

#include <memory>

#include "autotune/timer.hpp"

namespace gridflow::autotune {

class SlowestRankTimer final : public Timer {
 public:
  /// `local` times this rank's part; stop() is collective over `comm`.
  SlowestRankTimer(std::unique_ptr<Timer> local, MPI_Comm comm) : m_local(std::move(local)), m_comm(comm) {}
  void start() override { m_local->start(); }
  double stop() override;

 private:
  std::unique_ptr<Timer> m_local;
  MPI_Comm m_comm;
};

}  // namespace gridflow::autotune
