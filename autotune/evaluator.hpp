#pragma once
// Evaluator: what the tuner knows of a kernel. The caller implements it for one kernel, one grid
// and one precision: check(c) compares the candidate's result with the oracle, run(c) executes
// the candidate once (the tuner times that call).
#include <string>

#include "autotune/configuration.hpp"

namespace gridflow::autotune {

/// Outcome of Evaluator::check: a failing candidate is rejected and never used.
struct CheckResult {
  bool passed = true;
  std::string reason;  ///< why it failed ("max |u - oracle| = 3e-2 > 1e-12"); empty when passed

  static CheckResult pass() { return {true, {}}; }
  static CheckResult fail(std::string why) { return {false, std::move(why)}; }
};

class Evaluator {
 public:
  virtual ~Evaluator() = default;
  /// Runs `c` on a known input and compares its result with the oracle's. Called once per
  /// configuration, before any timed run.
  virtual CheckResult check(const Configuration& c) = 0;
  /// One execution of `c`, the work to be timed. Queue it on the stream given to the timer (an
  /// EventTimer), or block until it is done (a SteadyTimer).
  virtual void run(const Configuration& c) = 0;
  /// What one run of `c` computes, in the unit the costs compare (the tuner divides each run's
  /// time by it): 1 where every run does the same work; the steps of the run where candidates'
  /// runs differ in length (on-line tuning: whole launches of each candidate's own depth).
  virtual double work(const Configuration&) const { return 1.0; }
  // Either may throw gridflow::Error for a configuration that cannot launch (too many registers
  // or too much shared memory): the tuner then skips it and says why in its report.
};

}  // namespace gridflow::autotune
