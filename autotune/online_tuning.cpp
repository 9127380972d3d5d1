#include "autotune/online_tuning.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <stdexcept>
#include <vector>

#include "autotune/cache_key.hpp"
#include "autotune/evaluator.hpp"
#include "autotune/timer.hpp"
#include "autotune/tuning_cache.hpp"
#include "mesh/check.hpp"
#include "mesh/device.hpp"

namespace gridflow::autotune {

namespace {

/// A measurement should last about this long, so that launch and clock granularity do not count.
constexpr double target_run_seconds = 1e-3;

/// Leaves the tuner when the computation ends inside a run. Not a gridflow::Error on purpose: the
/// tuner takes those for a candidate that cannot run and goes on to the next.
class ComputationEnded : public std::exception {
 public:
  const char* what() const noexcept override { return "the computation ended during the tuning"; }
};

/// `steps` rounded up to a whole multiple of `multiple`.
std::int64_t whole_multiples(std::int64_t steps, std::int64_t multiple) { return (steps + multiple - 1) / multiple * multiple; }

/// One run of a candidate = the target steps per run rounded up to whole multiples of the
/// candidate's multiple (setup.candidate_multiple, else setup.run_multiple) real steps with it; its
/// work is those steps, so its cost is seconds per step. See online_tuning.hpp for why check() has
/// nothing to compare.
class StepsEvaluator final : public autotune::Evaluator {
 public:
  /// Never takes the run past `last_step` (nullopt: no limit).
  StepsEvaluator(SteppedRun& run, const OnlineTuning& setup, std::optional<std::int64_t> last_step)
      : m_run(run), m_setup(setup), m_last_step(last_step) {}
  /// Known once probe runs have been timed, before the first candidate: steps for about
  /// target_run_seconds, before rounding.
  void set_target_steps(std::int64_t steps) { m_target_steps = steps; }
  /// The steps of a run of `c`: at most whole_multiples(target, setup.run_multiple).
  std::int64_t steps_per_run(const autotune::Configuration& c) const {
    const std::int64_t multiple = m_setup.candidate_multiple ? m_setup.candidate_multiple(c) : m_setup.run_multiple;
    // Not a gridflow::Error, which the tuner would take for a candidate that cannot launch.
    if (multiple < 1 || m_setup.run_multiple % multiple != 0)
      throw std::logic_error("on-line tuning: " + c.to_string() + " asks for runs of multiples of " + std::to_string(multiple) +
                             " steps, not a divisor of " + std::to_string(m_setup.run_multiple));
    return whole_multiples(m_target_steps, multiple);
  }
  double work(const autotune::Configuration& c) const override { return static_cast<double>(steps_per_run(c)); }

  autotune::CheckResult check(const autotune::Configuration& c) override {
    // Applying the candidate here sets up its exchange (collective, slow with NCCL) untimed.
    m_run.apply(c);
    return autotune::CheckResult::pass();
  }

  void run(const autotune::Configuration& c) override {
    const std::int64_t steps = steps_per_run(c);
    if (m_last_step && m_run.step() + steps > *m_last_step)
      throw std::logic_error("on-line tuning: a run of " + c.to_string() + " would pass step " +
                             std::to_string(*m_last_step) + ", the last the tuning may take");
    m_run.apply(c);
    if (m_run.advance(steps) < steps) throw ComputationEnded();
  }

 private:
  SteppedRun& m_run;
  const OnlineTuning& m_setup;
  std::int64_t m_target_steps = 1;
  std::optional<std::int64_t> m_last_step;
};

/// Steps per measured run: enough for target_run_seconds judging by probe runs (the slowest
/// rank's time), before any rounding. The probe doubles its length from setup.probe_steps, since
/// a first run pays for cold caches, and takes at most `probe_limit` steps in all.
std::int64_t probe_steps_per_run(SteppedRun& run, const OnlineTuning& setup, std::int64_t probe_limit) {
  std::int64_t count = setup.probe_steps, taken = 0;
  double slowest = 0;
  for (;;) {
    const double start = MPI_Wtime();
    const std::int64_t advanced = run.advance(count);
    mesh::synchronize(setup.space, setup.stream);
    const double local = MPI_Wtime() - start;
    if (advanced < count) throw ComputationEnded();
    GRIDFLOW_MPI_CHECK(MPI_Allreduce(&local, &slowest, 1, MPI_DOUBLE, MPI_MAX, setup.comm));
    taken += count;
    if (slowest >= target_run_seconds / 4 || taken + 2 * count > probe_limit) break;
    count *= 2;
  }
  const double wanted = std::ceil(target_run_seconds * static_cast<double>(count) / std::max(slowest, 1e-9));
  return static_cast<std::int64_t>(std::clamp(wanted, 1.0, 1e6));
}

}  // namespace

OnlineTuningResult tune_online(SteppedRun& run, const autotune::SearchSpace& space, const OnlineTuning& setup) {
  const std::int64_t first_step = run.step();
  const auto max_steps = setup.max_steps;
  StepsEvaluator evaluator(run, setup, max_steps ? std::optional(first_step + *max_steps) : std::nullopt);
  TuningRequest request = setup.request;
  request.affordable_runs = [&]() -> std::optional<std::size_t> {
    if (max_steps && *max_steps < setup.probe_steps + setup.run_multiple) return std::size_t{0};
    // The probe may spend a tenth of the steps the tuning may take (all of them off-line).
    const std::int64_t probe_limit = max_steps ? std::max(setup.probe_steps, *max_steps / 10) : 1 << 20;
    const std::int64_t target = probe_steps_per_run(run, setup, probe_limit);
    evaluator.set_target_steps(target);
    if (!max_steps) return std::nullopt;
    // Sized for the longest runs (whole multiples of run_multiple): never past max_steps.
    return static_cast<std::size_t>((*max_steps - (run.step() - first_step)) / whole_multiples(target, setup.run_multiple));
  };

  OnlineTuningResult result;
  result.kernel = request.key.kernel;
  TuningOutcome& outcome = result.outcome;
  try {
    outcome = choose_collectively(
        request, space, evaluator,
        autotune::make_timer(setup.space == mesh::MemorySpace::device ? std::optional(setup.stream) : std::nullopt),
        setup.comm);
  } catch (const ComputationEnded&) {
    // Every rank sees the end at the same step (it follows from global reductions), so every rank
    // lands here together.
    outcome = {};
    outcome.chosen = space.default_configuration();
    outcome.note = "the computation ended after " + std::to_string(run.step() - first_step) +
                   " steps, during the tuning: the defaults, nothing stored";
  }
  if (outcome.report) outcome.report->per = "step";
  run.apply(outcome.chosen);
  result.steps_taken = run.step() - first_step;
  return result;
}

template <int Dim>
TuningRequest tuning_request(const TuningOptions& options, kernels::core::Precision precision, const std::string& kernel,
                             mesh::MemorySpace space,
                             const mesh::Box<Dim>& owned, bool remeasure) {
  std::vector<std::int64_t> extents;
  for (int d = 0; d < Dim; ++d) extents.push_back(owned.extent(d));
  TuningRequest request;
  request.options = options;
  request.remeasure = remeasure;
  request.must_store = remeasure;
  request.key = {autotune::device_key(space), kernel, kernels::core::to_string(precision), autotune::extents_key(extents)};
  return request;
}

TuningOutcome nothing_to_tune(bool off, const std::string& why) {
  TuningOutcome outcome;
  outcome.note = off ? "tuning.mode = off: the defaults" : "nothing to tune: " + why;
  return outcome;
}

std::string offline_tuning_text(const OnlineTuningResult& result, const TuningOptions& options) {
  std::string text = result.text();
  if (result.outcome.report) {
    const auto path = options.cache.empty() ? autotune::default_cache_path().string() : options.cache;
    text += "  stored in " + path + "\n";
  }
  return text;
}

template TuningRequest tuning_request<2>(const TuningOptions&, kernels::core::Precision, const std::string&, mesh::MemorySpace, const mesh::Box<2>&,
                                         bool);
template TuningRequest tuning_request<3>(const TuningOptions&, kernels::core::Precision, const std::string&, mesh::MemorySpace, const mesh::Box<3>&,
                                         bool);

}  // namespace gridflow::autotune
