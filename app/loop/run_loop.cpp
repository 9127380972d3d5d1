#include "app/loop/run_loop.hpp"

#include <mpi.h>

#include <algorithm>

#include "mesh/check.hpp"

namespace gridflow::app {

template <class T, int Dim>
RunState<T, Dim> RunLoop<T, Dim>::state_of(const Steppable<T, Dim>& stepping, bool ending, const RunOutcome& outcome) const {
  return {stepping.step(), outcome.start_step, stepping.last_step(), stepping.time(),    stepping.dt(),
          ending,          m_fields,           m_decomposition,       outcome.timed_from, outcome.stepping_seconds,
          outcome.stop ? &*outcome.stop : nullptr};
}

template <class T, int Dim>
std::int64_t RunLoop<T, Dim>::next_target(const RunState<T, Dim>& state, std::vector<std::int64_t>& wanted) const {
  std::int64_t target = state.last_step;
  if (state.step < state.timed_from) target = std::min(target, state.timed_from);
  for (std::size_t i = 0; i < m_observers.size(); ++i) {
    wanted[i] = m_observers[i]->next_step(state);
    if (wanted[i] <= state.step)
      throw Error("observer '" + m_observers[i]->name() + "' asked to act at step " + std::to_string(wanted[i]) +
                  ", not after the current step " + std::to_string(state.step));
    target = std::min(target, wanted[i]);
  }
  return target;
}

template <class T, int Dim>
void RunLoop<T, Dim>::act(std::size_t i, const RunState<T, Dim>& state, RunControl& control, std::vector<std::int64_t>& acted_at) {
  m_observers[i]->act(state, control);
  acted_at[i] = state.step;
}

template <class T, int Dim>
std::optional<StopRequest> RunLoop<T, Dim>::agree(const RunState<T, Dim>& here, RunControl& control,
                                                  std::vector<std::int64_t>& acted_at) {
  const MPI_Comm comm = m_decomposition.comm();
  std::vector<bool> flags(m_observers.size());
  for (std::size_t i = 0; i < m_observers.size(); ++i) flags[i] = m_observers[i]->flag_raised();
  BoundaryAgreement agreed = agree_at_boundary(control.take_stop_request(), flags, comm);
  if (std::find(agreed.flags.begin(), agreed.flags.end(), true) == agreed.flags.end()) return std::move(agreed.stop);
  for (std::size_t i = 0; i < m_observers.size(); ++i)
    if (agreed.flags[i] && acted_at[i] != here.step) act(i, here, control, acted_at);
  // A stop the flagged acts asked for is honoured at this boundary too.
  auto again = agree_at_boundary(control.take_stop_request(), {}, comm);
  return agreed.stop ? std::move(agreed.stop) : std::move(again.stop);
}

template <class T, int Dim>
RunOutcome RunLoop<T, Dim>::run(Steppable<T, Dim>& stepping) {
  const std::size_t count = m_observers.size();
  RunOutcome outcome;
  outcome.start_step = stepping.step();
  outcome.timed_from = std::max(m_options.warmup_steps, stepping.step());
  m_fields.point_to(stepping.fields(), stepping.stream());
  for (auto* o : m_observers) o->on_start(state_of(stepping, false, outcome));

  std::vector<std::int64_t> wanted(count), acted_at(count, -1);
  RunControl control;
  // The steppable leaves its final state in its fields, which the last acts read.
  const auto conclude = [&] {
    stepping.conclude();
    m_fields.point_to(stepping.fields(), stepping.stream());
  };
  for (;;) {
    bool ending = stepping.finished();
    std::fill(wanted.begin(), wanted.end(), Observer<T, Dim>::never);
    if (!ending) {
      const std::int64_t from = stepping.step();
      const std::int64_t target = next_target(state_of(stepping, false, outcome), wanted);
      const double started = MPI_Wtime();
      stepping.advance_to(target);
      if (from >= outcome.timed_from) outcome.stepping_seconds += MPI_Wtime() - started;
      GRIDFLOW_REQUIRE(stepping.step() > from || stepping.finished(),
                       "the run took no step from step " + std::to_string(from) + " and has not finished");
      m_fields.point_to(stepping.fields(), stepping.stream());
      ending = stepping.finished();
    }
    if (ending) conclude();
    const RunState<T, Dim> here = state_of(stepping, ending, outcome);
    for (std::size_t i = 0; i < count; ++i)
      if (wanted[i] == here.step || m_observers[i]->acts_at_every_boundary() || (ending && m_observers[i]->acts_at_end()))
        act(i, here, control, acted_at);
    if (ending) break;

    outcome.stop = agree(here, control, acted_at);
    if (outcome.stop) {
      conclude();
      const RunState<T, Dim> last = state_of(stepping, true, outcome);
      for (std::size_t i = 0; i < count; ++i)
        if (m_observers[i]->acts_at_end() && acted_at[i] != last.step) act(i, last, control, acted_at);
      break;
    }
  }
  outcome.step = stepping.step();
  for (auto* o : m_observers) o->on_finish(state_of(stepping, true, outcome));
  return outcome;
}

template class RunLoop<float, 2>;
template class RunLoop<double, 2>;
template class RunLoop<float, 3>;
template class RunLoop<double, 3>;

}  // namespace gridflow::app
