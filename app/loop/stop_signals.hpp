#pragma once
// StopSignals: SIGTERM, SIGINT and SIGUSR1 (what batch systems send before a time limit, and what
// a user's Ctrl-C sends) raise a flag the run loop reads at its next step boundary; nothing else
// happens in the handler (installed with sigaction; it only stores to a sig_atomic_t). A second
// SIGINT ends the process at once (status 130), for a user who does not want to wait for the
// checkpoint. One instance at a time; the previous handlers come back when it is destroyed. A run
// installs it first thing, so that a signal during the set-up is kept for the first boundary.
#include <csignal>

namespace gridflow::app {

class StopSignals {
 public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  /// The first signal received since an instance was constructed, or 0 (also when none is).
  /// Rank-local.
  static int received();
  /// "SIGTERM", "SIGINT", "SIGUSR1".
  static const char* name(int signal);

 private:
  struct sigaction m_old_term {}, m_old_int{}, m_old_usr1{};
};

}  // namespace gridflow::app
