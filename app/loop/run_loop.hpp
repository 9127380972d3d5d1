#pragma once
// RunLoop<T, Dim>: advances a Steppable and calls its observers where they asked to act. It is
// the one place where a run's "every so often" happens: output, progress, checks, timing, and
// what comes (checkpoints, signals, wall-clock limits, in-situ filters) plug in as observers
// without touching a stepper or a solver.
//
// At each step boundary, in this order:
//   1. the observers due here act, in the order they were added: those whose next_step() is this
//      step, those that act at every boundary and, when the steppable has finished, those that
//      act at the end;
//   2. the ranks agree (one small MPI_Allreduce) on stop requests made so far and on raised
//      flags; flagged observers that have not acted at this step act, in order, and when any did
//      the ranks agree once more on stop requests;
//   3. on an agreed stop the steppable concludes and the observers that act at the end, and have
//      not acted at this step, act.
// Then the loop asks every observer for its next step and advances the steppable to the nearest
// (never past its last step, and stopping at the end of the warm-up). An observer acts at most
// once per step. on_start() and on_finish() are called once each, in order, on every rank.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "app/loop/field_access.hpp"
#include "app/loop/observer.hpp"
#include "app/loop/steppable.hpp"
#include "app/loop/stop_request.hpp"
#include "mesh/decomposition.hpp"

namespace gridflow::app {

struct RunOutcome {
  std::int64_t start_step = 0;      ///< the step the loop started from
  std::int64_t step = 0;            ///< the step the run ended at
  std::optional<StopRequest> stop;  ///< set when the observers ended it early
  std::int64_t timed_from = 0;      ///< see RunState
  double stepping_seconds = 0;
  int exit_status() const { return stop ? stop->exit_status : 0; }
};

template <class T, int Dim>
class RunLoop {
 public:
  struct Options {
    /// Steps from step 0 left out of stepping_seconds (first launches, caches, clocks); steps
    /// taken before the loop are left out too. The loop stops at the first timed step.
    std::int64_t warmup_steps = 0;
  };

  explicit RunLoop(const mesh::Decomposition<Dim>& decomposition) : RunLoop(decomposition, Options{}) {}
  RunLoop(const mesh::Decomposition<Dim>& decomposition, Options options)
      : m_decomposition(decomposition), m_options(options), m_fields(decomposition) {}

  /// Observers act in the order they are added. The loop does not own them.
  void add(Observer<T, Dim>& observer) { m_observers.push_back(&observer); }

  /// The fields the observers read; a run may point it at its fields before the loop to share its
  /// host buffers (a write before an on-line tuning takes its steps).
  FieldAccess<T, Dim>& fields() { return m_fields; }

  /// Collective over the decomposition's communicator. Runs `stepping` from where it stands until
  /// it finishes or a stop is agreed. Exceptions from observers or the steppable propagate.
  RunOutcome run(Steppable<T, Dim>& stepping);

 private:
  RunState<T, Dim> state_of(const Steppable<T, Dim>& stepping, bool ending, const RunOutcome& outcome) const;
  /// The nearest step an observer asked for (each one's answer in `wanted`), the warm-up's end or
  /// the last step.
  std::int64_t next_target(const RunState<T, Dim>& state, std::vector<std::int64_t>& wanted) const;
  /// Observer i acts; acted_at[i] records the step.
  void act(std::size_t i, const RunState<T, Dim>& state, RunControl& control, std::vector<std::int64_t>& acted_at);
  /// Step 2 of a boundary (see above): the stop the ranks agree on, if any.
  std::optional<StopRequest> agree(const RunState<T, Dim>& here, RunControl& control, std::vector<std::int64_t>& acted_at);

  const mesh::Decomposition<Dim>& m_decomposition;
  Options m_options;
  FieldAccess<T, Dim> m_fields;
  std::vector<Observer<T, Dim>*> m_observers;
};

extern template class RunLoop<float, 2>;
extern template class RunLoop<double, 2>;
extern template class RunLoop<float, 3>;
extern template class RunLoop<double, 3>;

}  // namespace gridflow::app
