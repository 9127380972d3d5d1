#include "solver/heat_tuning.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "autotune/cache_key.hpp"
#include "autotune/evaluator.hpp"
#include "mesh/check.hpp"
#include "solver/kernel_spaces.hpp"

namespace gridflow::solver {

namespace {

/// A measurement should last about this long, so that launch and clock granularity do not count.
constexpr double target_run_seconds = 1e-3;

HeatTunables tunables_of(const autotune::Configuration& c, HeatTunables base) {
  if (c.has("block_x")) base.cuda = heat_cuda_params(c);
  if (c.has("ghost_width")) base.exchange_width = c.at("ghost_width");
  return base;
}

/// One run of a candidate = `steps_per_run` real steps with it; see heat_tuning.hpp for why
/// check() has nothing to compare.
template <class T>
class HeatStepsEvaluator final : public autotune::Evaluator {
 public:
  /// Never takes the solver past `last_step` (nullopt: no limit).
  HeatStepsEvaluator(HeatSolver<T>& solver, std::optional<std::int64_t> last_step)
      : m_solver(solver), m_base(solver.tunables()), m_last_step(last_step) {}
  /// Known once a probe step has been timed, before the first candidate.
  void set_steps_per_run(std::int64_t steps) { m_steps_per_run = steps; }

  autotune::CheckResult check(const autotune::Configuration& c) override {
    // Applying the candidate here sets up its exchange (collective, slow with NCCL) untimed.
    m_solver.set_tunables(tunables_of(c, m_base));
    return autotune::CheckResult::pass();
  }

  void run(const autotune::Configuration& c) override {
    if (m_last_step && m_solver.step() + m_steps_per_run > *m_last_step)
      throw std::logic_error("heat tuning: a run of " + c.to_string() + " would pass step " +
                             std::to_string(*m_last_step) + ", the last the tuning may take");
    m_solver.set_tunables(tunables_of(c, m_base));
    m_solver.advance(m_steps_per_run);
  }

 private:
  HeatSolver<T>& m_solver;
  HeatTunables m_base;
  std::int64_t m_steps_per_run = 1;
  std::optional<std::int64_t> m_last_step;
};

/// Steps per measured run: enough for target_run_seconds judging by probe steps (the slowest
/// rank's time), rounded up to whole exchange cycles of every candidate width. The probe doubles
/// its step count from one, since a first step pays for cold caches, and takes at most
/// `probe_limit` steps in all.
template <class T>
std::int64_t probe_steps_per_run(HeatSolver<T>& solver, StreamHandle stream, mesh::MemorySpace space, int cycle,
                                 std::int64_t probe_limit, MPI_Comm comm) {
  std::int64_t count = 1, taken = 0;
  double slowest = 0;
  for (;;) {
    const double start = MPI_Wtime();
    solver.advance(count);
    if (space == mesh::MemorySpace::device) mesh::synchronize(stream);
    const double local = MPI_Wtime() - start;
    GRIDFLOW_MPI_CHECK(MPI_Allreduce(&local, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm));
    taken += count;
    if (slowest >= target_run_seconds / 4 || taken + 2 * count > probe_limit) break;
    count *= 2;
  }
  const double wanted = std::ceil(target_run_seconds * static_cast<double>(count) / std::max(slowest, 1e-9));
  const auto steps = static_cast<std::int64_t>(std::clamp(wanted, 1.0, 1e6));
  return (steps + cycle - 1) / cycle * cycle;
}

}  // namespace

std::vector<int> heat_exchange_widths(const RunOptions& run, const mesh::Decomposition<2>& decomposition) {
  if (decomposition.size() == 1 || run.halo_width_given || run.tuning.mode == TuningMode::off) return {};
  const auto& owned = decomposition.owned();
  long long local = std::min(owned.extent(0), owned.extent(1)), fewest = 0;
  GRIDFLOW_MPI_CHECK(MPI_Allreduce(&local, &fewest, 1, MPI_LONG_LONG, MPI_MIN, decomposition.comm()));
  std::vector<int> widths;
  for (const int w : {1, 2, 4, 8})
    if (w <= fewest) widths.push_back(w);
  if (widths.size() < 2) widths.clear();
  return widths;
}

autotune::SearchSpace heat_space(mesh::MemorySpace space, const std::vector<int>& widths, int default_width) {
  autotune::SearchSpace s = space == mesh::MemorySpace::device ? heat_cuda_space() : autotune::SearchSpace{};
  if (widths.size() >= 2) s.add(autotune::Parameter::integers("ghost_width", widths, default_width));
  return s;
}

std::string heat_kernel_label(mesh::MemorySpace space, bool tunes_width, const mesh::Decomposition<2>& decomposition) {
  std::string label = space == mesh::MemorySpace::device ? "heat2d:cuda" : "heat2d:host";
  if (tunes_width)
    label += ":ghost_width/" + std::to_string(decomposition.dims()[0]) + "x" + std::to_string(decomposition.dims()[1]);
  return label;
}

template <class T>
HeatTuningResult tune_heat(HeatSolver<T>& solver, const HeatConfig& config, const mesh::Decomposition<2>& decomposition,
                           mesh::MemorySpace space, StreamHandle stream, const std::vector<int>& widths,
                           std::optional<std::int64_t> max_steps, bool remeasure) {
  const std::int64_t first_step = solver.step();
  const autotune::SearchSpace search_space = heat_space(space, widths, config.run.halo_width);
  HeatTuningResult result;
  result.kernel = heat_kernel_label(space, widths.size() >= 2, decomposition);
  if (search_space.parameters().empty()) {
    result.outcome.note = config.run.tuning.mode == TuningMode::off && !remeasure
                              ? "tuning.mode = off: the defaults"
                              : "nothing to tune: the host heat kernel has no launch parameters, and the ghost width "
                                "is tuned only on several ranks with halo.width left unset";
    return result;
  }

  const auto& owned = decomposition.owned();
  TuningRequest request;
  request.options = config.run.tuning;
  request.remeasure = remeasure;
  request.must_store = remeasure;
  request.key = {autotune::device_key(space), result.kernel, config.run.precision,
                 autotune::extents_key({owned.extent(0), owned.extent(1)})};
  const HeatTunables base = solver.tunables();
  HeatStepsEvaluator<T> evaluator(solver, max_steps ? std::optional(first_step + *max_steps) : std::nullopt);
  const int cycle = widths.empty() ? 1 : *std::max_element(widths.begin(), widths.end());
  request.affordable_runs = [&]() -> std::optional<std::size_t> {
    if (max_steps && *max_steps < 1 + cycle) return std::size_t{0};
    // The probe may spend a tenth of the steps the tuning may take (all of them off-line).
    const std::int64_t probe_limit = max_steps ? std::max<std::int64_t>(1, *max_steps / 10) : 1 << 20;
    const std::int64_t steps_per_run = probe_steps_per_run(solver, stream, space, cycle, probe_limit, decomposition.comm());
    evaluator.set_steps_per_run(steps_per_run);
    if (!max_steps) return std::nullopt;
    return static_cast<std::size_t>((*max_steps - (solver.step() - first_step)) / steps_per_run);
  };

  result.outcome = choose_collectively(request, search_space, evaluator,
                                       autotune::make_timer(space == mesh::MemorySpace::device ? std::optional(stream)
                                                                                               : std::nullopt),
                                       decomposition.comm());
  solver.set_tunables(tunables_of(result.outcome.chosen, base));
  result.steps_taken = solver.step() - first_step;
  return result;
}

template HeatTuningResult tune_heat<float>(HeatSolver<float>&, const HeatConfig&, const mesh::Decomposition<2>&,
                                           mesh::MemorySpace, StreamHandle, const std::vector<int>&,
                                           std::optional<std::int64_t>, bool);
template HeatTuningResult tune_heat<double>(HeatSolver<double>&, const HeatConfig&, const mesh::Decomposition<2>&,
                                            mesh::MemorySpace, StreamHandle, const std::vector<int>&,
                                            std::optional<std::int64_t>, bool);

}  // namespace gridflow::solver
