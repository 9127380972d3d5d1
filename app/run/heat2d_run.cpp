#include "app/run/heat2d_run.hpp"

#include "app/deck/heat2d_deck.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>

#include "gridflow/config.hpp"
#include "io/output_series.hpp"
#include "mesh/check.hpp"
#include "mesh/decomposition.hpp"
#include "halo/transport.hpp"
#include "solver/device_tuning.hpp"
#include "solver/ghost_width_plan.hpp"
#include "solver/heat_solver.hpp"
#include "solver/heat_run_tuning.hpp"
#include "app/loop/checkpoint_observer.hpp"
#include "app/deck/checkpoint_options.hpp"
#include "app/output/field_output.hpp"
#include "app/output/spectrum_diagnostic.hpp"
#include "app/output/attach_filters.hpp"
#include "app/loop/finite_check.hpp"
#include "app/output/ghost_width_report.hpp"
#include "app/run/heat_checkpoint.hpp"
#include "app/run/heat_start_check.hpp"
#include "app/loop/heat_stepping.hpp"
#include "app/output/phase_table.hpp"
#include "app/loop/restart.hpp"
#include "app/loop/run_loop.hpp"
#include "app/run/run_setup.hpp"
#include "app/output/run_summary.hpp"
#include "app/loop/step_progress.hpp"
#include "app/loop/time_budget.hpp"

namespace gridflow::app {

namespace {

io::Attributes to_io_attributes(const autotune::ReportAttributes& report) {
  io::Attributes out;
  for (const auto& [name, value] : report) std::visit([&, &n = name](const auto& v) { out.emplace_back(n, v); }, value);
  return out;
}

std::string describe_device(mesh::MemorySpace space) {
  return space == mesh::MemorySpace::device ? mesh::current_gpu_description() : "cpu (Kokkos host)";
}

template <class T>
int run(const solver::HeatConfig& config, const DiagnosticsConfig& diagnostics,
        const std::vector<FilterBlock<2>>& filters, const Deck& deck,
        const mesh::Decomposition<2>& decomposition, mesh::MemorySpace space, halo::Transport transport,
        const std::string& summary_path, const CheckpointOptions& checkpoint) {
  const MPI_Comm comm = decomposition.comm();
  const bool root = decomposition.rank() == 0;
  const double wall_start = MPI_Wtime();
  std::optional<mesh::Stream> stream_owner;
  if (space == mesh::MemorySpace::device) stream_owner.emplace();
  const StreamHandle stream = stream_owner ? stream_owner->get() : nullptr;
  const auto& grid = decomposition.grid();
  const bool device_tuned = solver::device_is_tuned(config.run, space, decomposition, /*remeasure=*/false);
  std::string device_name = describe_device(space);

  GhostWidthReport ghost_width{solver::plan_ghost_width(config.run, decomposition), std::nullopt};

  if (root) {
    const std::string device_line =
        device_tuned ? "auto: " + device_name + " or " + describe_device(mesh::MemorySpace::host) + ", measured"
                     : device_name;
    std::printf("gridflow %s (%s): heat2d, %lld x %lld points, %s, %d rank(s) as %d x %d, device %s\n", GRIDFLOW_VERSION,
                GRIDFLOW_GIT_HASH, static_cast<long long>(grid.n[0] + 1), static_cast<long long>(grid.n[1] + 1),
                kernels::core::to_string(config.run.precision), decomposition.size(), decomposition.dims()[0], decomposition.dims()[1],
                device_line.c_str());
    std::printf("  a = %g, dt = %.6e (stability bound %.6e), %lld steps to t = %.6e\n", config.a, config.dt,
                config.dt_stable, static_cast<long long>(config.steps), static_cast<double>(config.steps) * config.dt);
    std::printf("  %s%s\n", ghost_width.setup_text().c_str(),
                decomposition.size() > 1 ? (transport == halo::Transport::nccl ? ", halo over NCCL" : ", halo over MPI") : "");
    std::fflush(stdout);
  }

  const double setup_start = MPI_Wtime();
  auto started = std::make_unique<solver::HeatSolver<T>>(config, decomposition, space, stream, transport,
                                                 kernels::stencil::HeatCudaParams{}, ghost_width.plan.capacity());
  const double setup_seconds = MPI_Wtime() - setup_start;  // fields and their initial values
  const solver::HeatSetupTimes setup_parts = started->setup_times();
  require_finite_start<T>(config, decomposition, started->non_finite(), stream);

  // A restart continues the checkpoint's run: its solution, step and output series.
  std::optional<HeatRestart> restart;
  if (const auto path = restart_path(checkpoint, config.run.output_name, comm)) {
    const io::CheckpointReader<2> reader(*path, decomposition);
    restart = restore_heat_checkpoint<T>(reader, *started, deck, config.dt, config.steps, config.run.output_name,
                                         decomposition.size());
    if (root) {
      std::printf("  restart from %s: step %lld, t = %.6e (written by %s on %lld rank(s))\n", reader.path().c_str(),
                  static_cast<long long>(restart->step), static_cast<double>(restart->step) * config.dt,
                  reader.content().code_version.c_str(), static_cast<long long>(reader.content().ranks));
      if (!restart->tuning_note.empty()) std::printf("  %s\n", restart->tuning_note.c_str());
      std::fflush(stdout);
    }
  }
  const std::int64_t first_step = restart ? restart->step : 0;
  const std::string non_finite_hint = fmt::format(
      "with dt = {:.6e} inside the stability bound this points at the initial or boundary expressions; the output "
      "files written before hold finite values",
      config.dt);

  const std::int64_t steps = config.steps;
  const std::int64_t every = config.run.output_every;
  const std::int64_t report_every = config.run.progress_every > 0 ? config.run.progress_every : std::max<std::int64_t>(1, steps / 10);
  const std::int64_t warmup = steps >= 20 ? std::min<std::int64_t>(10, steps / 10) : 0;
  const double cells_per_step = static_cast<double>(grid.interior().size());

  RunLoop<T, 2> loop(decomposition, {warmup});
  FieldOutput<T, 2> output(
      decomposition,
      {config.run.output_enabled, config.run.output_dir, config.run.output_name, every, config.run.output_async},
      [&] {  // /Info names the device the run ended on, once the tuning has chosen it
        return io::Attributes{{"code_version", std::string(GRIDFLOW_VERSION) + " (" + GRIDFLOW_GIT_HASH + ")"},
                              {"problem", std::string("heat2d")},
                              {"device", device_name},
                              {"decomposition", std::vector<std::int64_t>{decomposition.dims()[0], decomposition.dims()[1]}}};
      },
      deck.used_attributes(), wall_start);
  output.add_run_attributes(ghost_width.attributes());  // before the tuning: requested and allocated
  const auto spectra = attach_spectra(output, decomposition, diagnostics);
  const auto insitu_filters = attach_filters<T, 2>(output, decomposition, filters, stream, config.run.tuning);
  // Step 0 is written before the tuning takes steps. When the tuning chooses the device that
  // /Info names, the file waits for the choice and step 0 waits in a host copy (a small grid).
  const bool step0_waits = !restart && device_tuned && every > 0 && config.run.output_enabled;
  if (restart) output.continue_series(restart->series);
  std::optional<mesh::Field<T, 2>> step0;
  if (step0_waits) {
    step0.emplace(decomposition.owned(), ghost_width.plan.capacity(), mesh::MemorySpace::host, "u_host");
    step0->copy_from(started->solution());
  } else if (every > 0 && !restart) {
    loop.fields().point_to({{"u", &started->solution()}}, stream);  // its host buffer then serves the loop's steps too
    output.write(0, 0.0, config.dt, loop.fields());
  }
  // The tuning's runs are the run's first steps; they stop short of the first output.
  const double tuning_start = MPI_Wtime();
  // A restart on the checkpoint's rank count and memory space takes the checkpoint's choice and
  // tunes nothing; elsewhere the tuning takes the steps up to the next output, as at a start.
  solver::HeatConfig tuning_config = config;
  if (restart && restart->tunables) tuning_config.run.tuning.mode = autotune::TuningMode::off;
  const std::int64_t tuning_steps =
      (every > 0 ? std::min(next_multiple(first_step, every), steps) : steps) - first_step;
  auto tuned = solver::tune_heat_run(std::move(started), tuning_config, decomposition, ghost_width.plan, tuning_steps);
  solver::HeatSolver<T>& solver = *tuned.solver;
  if (restart && restart->tunables) solver.set_tunables(*restart->tunables);
  // From here on each file's /Info says what the solver's exchanges have used since the tuning.
  const auto ghost_width_used = [&solver, chosen = solver.tunables().ghost_width, after_tuning = solver.exchanges_by_width()] {
    return solver::ghost_width_use(chosen, after_tuning, solver.exchanges_by_width());
  };
  output.refresh_before_writes([&] {
    ghost_width.use = ghost_width_used();
    return ghost_width.attributes();
  });
  solver.wait();
  const double tuning_seconds = MPI_Wtime() - tuning_start;  // its steps are in the stencil phases too
  device_name = describe_device(solver.space());
  if (root && restart && restart->tunables) {
    std::printf("  tuning as in the checkpoint: ghost width %d, %s\n", solver.tunables().ghost_width,
                halo::to_string(solver.tunables().transport).c_str());
    std::fflush(stdout);
  } else if (root && config.run.tuning.mode != autotune::TuningMode::off) {
    std::printf("%s", tuned.text().c_str());
    if (tuned.device) std::printf("  device: %s\n", device_name.c_str());
    if (tuned.steps_taken() > 0)
      std::printf("  tuning took %lld of the %lld steps\n", static_cast<long long>(tuned.steps_taken()),
                  static_cast<long long>(steps));
    std::fflush(stdout);
  }
  output.add_run_attributes(to_io_attributes(tuned.attributes()));
  if (step0) {  // its values were checked finite by require_finite_start
    FieldAccess<T, 2> held(decomposition);
    held.point_to({{"u", &*step0}}, nullptr);
    output.write(0, 0.0, config.dt, held);
  }

  // The kernels flag the first non-finite value as they write; the check reads the flag at every
  // boundary, before the output and checkpoints of that step (it is added first).
  FiniteCheck<T, 2> finite(report_every, solver.non_finite(), solver.stream(), "u", non_finite_hint);
  StepProgress<T, 2> progress(report_every, "u", root);
  const auto budget = find_time_budget(checkpoint.wall_limit, MPI_Wtime() - wall_start, comm);
  CheckpointObserver<T, 2> checkpointer(
      checkpoint, config.run.output_name,
      [&](const RunState<T, 2>& state, const std::string& path) {
        save_heat_checkpoint<T>(path, state, solver, deck, output.series_steps());
      },
      budget ? std::optional<double>(budget->seconds) : std::nullopt, budget ? budget->source : "", root);
  PhaseTable<T, 2> timing(
      [&] {
        const auto times = solver.times();  // steps a device choice took on the other device are not in them
        return Phases{{"stencil interior", times.interior},
                      {"stencil edge strips", times.edge},
                      {"boundary values", times.boundary},
                      {"ghost exchange", times.exchange},
                      {"output (stepping waited)", output.seconds()},
                      {"output writes (background)", output.background_seconds()},
                      {"checkpoints", checkpointer.seconds()},
                      {"progress reductions", finite.seconds() + progress.seconds()},
                      {"set-up", setup_seconds},
                      {"tuning, its steps included", tuning_seconds}};
      },
      wall_start);
  loop.add(finite);
  loop.add(progress);
  loop.add(output);
  loop.add(timing);
  loop.add(checkpointer);  // last: the output of its step is in the series it records
  HeatStepping<T> stepping(solver, steps, config.dt, comm);
  if (config.run.output_enabled) {  // the writes' copies are allocated now, not in the output phase
    loop.fields().point_to(stepping.fields(), stream);
    output.allocate_buffers(loop.fields());
  }
  const RunOutcome outcome = loop.run(stepping);
  ghost_width.use = ghost_width_used();

  const double total = timing.total();
  const auto& phases = timing.phases();
  const std::int64_t first_timed = outcome.timed_from;  // warm-up and tuning steps are not in the throughput
  const double stepping_seconds = outcome.stepping_seconds;
  const double rate = stepping_seconds > 0 ? cells_per_step * static_cast<double>(outcome.step - first_timed) / stepping_seconds : 0;
  if (root) {
    std::printf("done: %lld steps to t = %.6e in %.3f s; %.3f Gcell/s (%.3f per rank, %lld warm-up/tuning steps excluded)\n",
                static_cast<long long>(outcome.step), solver.time(), total, rate * 1e-9, rate * 1e-9 / decomposition.size(),
                static_cast<long long>(first_timed));
    std::printf("%s\n", ghost_width.text().c_str());
    std::printf("%s", timing.text().c_str());
    if (config.run.output_enabled && output.written()) std::printf("output: %s\n", output.xdmf_path().c_str());
    if (outcome.stop) std::printf("%s\n", stop_line(outcome.step, *outcome.stop).c_str());
    std::fflush(stdout);
    if (!summary_path.empty()) {
      RunSummary s;
      s.problem = "heat2d";
      s.precision = kernels::core::to_string(config.run.precision);
      s.device = device_name;
      s.transport = decomposition.size() > 1 ? halo::to_string(solver.transport()) : "none";
      s.ranks = decomposition.size();
      s.decomposition = {decomposition.dims()[0], decomposition.dims()[1]};
      s.grid_points = {grid.n[0] + 1, grid.n[1] + 1};
      s.ghost_width = ghost_width;
      s.steps = outcome.step;
      s.warmup_steps = first_timed;
      s.tuning_steps = tuned.steps_taken();
      s.wall_seconds = total;
      s.stepping_seconds = stepping_seconds;
      s.cell_updates_per_second = rate;
      s.phases = phases;
      s.phases.emplace_back("set-up.fields", setup_parts.fields);  // rank 0's parts of it
      s.phases.emplace_back("set-up.initial values", setup_parts.initial);
      s.phases.emplace_back("set-up.other", setup_parts.other);
      write_summary_json(s, summary_path);
    }
  }
  return outcome.exit_status();
}

}  // namespace

int run_heat2d(Deck& deck, MPI_Comm comm, const std::string& summary_path) {
  const solver::HeatConfig config = read_heat_config(deck);
  const DiagnosticsConfig diagnostics = read_diagnostics(deck, {"u"});
  const auto filters = read_filters<2>(deck, {"u"}, config.grid);
  const CheckpointOptions checkpoint = read_checkpoint_options(deck, config.run.output_dir);
  deck.require_all_used();
  const auto place = prepare_run<2>(config.run, config.grid, summary_path, comm, [&](const RunPlacement<2>& p) {
    const int ghost = solver::plan_ghost_width(config.run, p.decomposition).capacity();
    return solver::heat_memory_need(config, p.decomposition.owned(), ghost, p.space);
  });
  check_checkpoint_dir(checkpoint, comm);
  return kernels::core::dispatch(config.run.precision, [&](auto zero) {
    using T = decltype(zero);
    return run<T>(config, diagnostics, filters, deck, place.decomposition, place.space, place.transport, summary_path,
                  checkpoint);
  });
}

}  // namespace gridflow::app
