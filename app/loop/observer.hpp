#pragma once
// Observer<T, Dim>: something a run does every so often (write, check, report, checkpoint, stop
// on a signal or a time limit) that is no part of the stepping. The RunLoop asks every observer
// when it next wants to act, steps to the nearest such step, and calls the ones due there; see
// run_loop.hpp for the order of the calls.
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "app/loop/run_state.hpp"
#include "app/loop/stop_request.hpp"

namespace gridflow::app {

/// What an observer may ask of the loop while it acts.
class RunControl {
 public:
  /// Ends the run at this step boundary: no rank takes another step. Rank-local: the loop agrees
  /// over the ranks after the acts of the boundary, so one rank's request stops every rank at the
  /// same step (the lowest requesting rank's reason and status win). The first request made on a
  /// rank since the last agreement is the one it brings.
  void request_stop(std::string reason, int exit_status) {
    if (!m_stop) m_stop = StopRequest{std::move(reason), exit_status};
  }
  /// The request made since the last call, which it clears (the loop's side).
  std::optional<StopRequest> take_stop_request() { return std::exchange(m_stop, std::nullopt); }

 private:
  std::optional<StopRequest> m_stop;
};

template <class T, int Dim>
class Observer {
 public:
  /// next_step's answer for "no step of mine".
  static constexpr std::int64_t never = std::numeric_limits<std::int64_t>::max();

  virtual ~Observer() = default;
  /// Names the observer in messages ("output", "progress").
  virtual std::string name() const = 0;
  /// Once, before the loop's first step. The state may be past step 0 (steps taken before the
  /// loop, such as an on-line tuning's).
  virtual void on_start(const RunState<T, Dim>& state) { (void)state; }
  /// The next step after state.step at which to act, or `never`. The same on every rank (acts
  /// are collective wherever the observer's work is), and a function of the state only: the
  /// loop asks at every boundary.
  virtual std::int64_t next_step(const RunState<T, Dim>& state) const {
    (void)state;
    return never;
  }
  /// Whether to act at every step boundary the loop makes (whoever asked for it), in the order
  /// added: for a cheap check that must come before anything of that step is written.
  virtual bool acts_at_every_boundary() const { return false; }
  /// Whether to act at the run's last step (it finished, or a stop was agreed), if not acted there already.
  virtual bool acts_at_end() const { return false; }
  /// Rank-local and cheap, asked at every boundary but the last: whether something outside the
  /// run (a signal, a file) wants act() now. Raised on any rank, the observer acts on every rank
  /// at that boundary. Boundaries come only where some observer asked for a step: an observer
  /// that must answer within n steps also asks for every n-th step.
  virtual bool flag_raised() const { return false; }
  /// At most once per step, on every rank.
  virtual void act(const RunState<T, Dim>& state, RunControl& control) = 0;
  /// Once, after the last act, on every rank.
  virtual void on_finish(const RunState<T, Dim>& state) { (void)state; }
};

/// The first multiple of `every` after `step`; Observer<T, Dim>::never when `every` is 0.
inline std::int64_t next_multiple(std::int64_t step, std::int64_t every) {
  return every > 0 ? (step / every + 1) * every : std::numeric_limits<std::int64_t>::max();
}

}  // namespace gridflow::app
