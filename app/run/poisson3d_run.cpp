#include "app/run/poisson3d_run.hpp"

#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <variant>
#include <vector>

#include "gridflow/config.hpp"
#include "halo/transport.hpp"
#include "io/output_series.hpp"
#include "mesh/check.hpp"
#include "app/deck/poisson3d_deck.hpp"
#include "solver/jacobi_solver.hpp"
#include "solver/poisson_problem.hpp"
#include "solver/poisson_solver.hpp"
#include "app/loop/checkpoint_observer.hpp"
#include "app/deck/checkpoint_options.hpp"
#include "app/loop/exact_error.hpp"
#include "app/output/field_output.hpp"
#include "app/output/spectrum_diagnostic.hpp"
#include "app/output/attach_filters.hpp"
#include "app/output/ghost_width_report.hpp"
#include "app/run/poisson_checkpoint.hpp"
#include "app/loop/poisson_stepping.hpp"
#include "app/loop/restart.hpp"
#include "app/loop/residual_csv.hpp"
#include "app/loop/residual_progress.hpp"
#include "app/loop/run_loop.hpp"
#include "app/run/run_setup.hpp"
#include "app/output/run_summary.hpp"
#include "app/loop/solve_check.hpp"
#include "app/loop/solve_outcome_line.hpp"
#include "app/loop/time_budget.hpp"

namespace gridflow::app {

namespace {

/// The residual history as datasets of the solution's file (/residual_history/iteration,
/// relative_residual, seconds): a history has any length, and an HDF5 attribute holds 64 KiB.
std::vector<io::StepDataset> residual_history_datasets(const solver::SolveReport& report) {
  std::vector<std::int64_t> it;
  std::vector<double> res, sec;
  for (const auto& r : report.history) {
    it.push_back(r.iteration);
    res.push_back(r.relative_residual);
    sec.push_back(r.seconds);
  }
  return {{"residual_history/iteration", std::move(it)},
          {"residual_history/relative_residual", std::move(res)},
          {"residual_history/seconds", std::move(sec)}};
}

/// /Info of the solution's file: the code, the problem, and how the solve went.
io::Attributes run_info(const solver::SolveReport& report, const std::string& solver_name, const std::string& device_name,
                        const std::optional<double>& max_error, const std::optional<autotune::OnlineTuningResult>& tuning) {
  io::Attributes info{{"code_version", std::string(GRIDFLOW_VERSION) + " (" + GRIDFLOW_GIT_HASH + ")"},
                      {"problem", std::string("poisson3d")},
                      {"solver", solver_name},
                      {"device", device_name},
                      {"converged", report.converged},
                      {"iterations", std::int64_t(report.iterations)},
                      {"relative_residual", report.relative_residual},
                      {"solve_seconds", report.seconds}};
  if (max_error) info.emplace_back("max_error", *max_error);
  if (tuning)
    for (const auto& [name, value] : tuning->attributes())
      std::visit([&, &n = name](const auto& v) { info.emplace_back(n, v); }, value);
  return info;
}

template <class T>
int run(const solver::PoissonConfig& config, const DiagnosticsConfig& diagnostics,
        const std::vector<FilterBlock<3>>& filters, const Deck& deck,
        const mesh::Decomposition<3>& d, mesh::MemorySpace space, halo::Transport transport,
        const std::string& summary_path, const CheckpointOptions& checkpoint) {
  const bool root = d.rank() == 0;
  const double wall_start = MPI_Wtime();
  std::optional<mesh::Stream> stream_owner;
  if (space == mesh::MemorySpace::device) stream_owner.emplace();
  const StreamHandle stream = stream_owner ? stream_owner->get() : nullptr;
  const auto& grid = d.grid();
  const std::string device_name = space == mesh::MemorySpace::device ? mesh::current_gpu_description() : "cpu (Kokkos host)";
  if (root) {
    std::printf("gridflow %s (%s): poisson3d, %lld x %lld x %lld points, %s, solver %s, %d rank(s) as %d x %d x %d, device %s\n",
                GRIDFLOW_VERSION, GRIDFLOW_GIT_HASH, static_cast<long long>(grid.n[0] + 1), static_cast<long long>(grid.n[1] + 1),
                static_cast<long long>(grid.n[2] + 1), kernels::core::to_string(config.run.precision), config.solver.c_str(), d.size(),
                d.dims()[0], d.dims()[1], d.dims()[2], device_name.c_str());
    std::fflush(stdout);
  }

  // The ghost widths Jacobi's tuning tries need their ghost layers from the start.
  GhostWidthReport ghost_width{config.solver == "jacobi" ? solver::plan_jacobi_ghost_width(config, d)
                                                         : solver::GhostWidthPlan{config.run.halo_width, {}},
                               std::nullopt};
  if (root) std::printf("  %s\n", ghost_width.setup_text().c_str());
  const double setup_start = MPI_Wtime();  // fields, f, ||b||, the solver, the exact solution's check
  solver::PoissonProblem<T> problem(config, d, space, stream, ghost_width.plan.capacity());
  const double problem_seconds = MPI_Wtime() - setup_start;  // u, f and ||b|| (it waits for the device)
  const solver::PoissonContext context{config, d, space, stream, transport};
  std::optional<autotune::OnlineTuningResult> tuning;
  const auto on_tuned = [&](const autotune::OnlineTuningResult& result) { tuning = result; };
  const auto restart_from = restart_path(checkpoint, config.run.output_name, d.comm());
  const bool restarting = restart_from.has_value();
  std::unique_ptr<solver::PoissonSolver<T>> solver;
  // A restart tunes nothing: it takes the checkpoint's choice where it applies (same ranks and device).
  if (config.solver == "jacobi" && !restarting)
    solver = std::make_unique<solver::JacobiSolver<T>>(context, solver::JacobiOnlineTuning{ghost_width.plan, on_tuned});
  else if (config.solver == "jacobi") solver = std::make_unique<solver::JacobiSolver<T>>(context);
  else solver = solver::make_poisson_solver<T>(context);
  const double solver_seconds = MPI_Wtime() - setup_start - problem_seconds;
  const double b_norm = problem.b_norm();
  // The same global value on every rank, so every rank stops alike. A NaN ||b|| makes every
  // relative residual NaN, which some solvers took for convergence.
  if (!std::isfinite(b_norm))
    throw InputError("key 'poisson.rhs' (with the poisson.boundary.* faces): ||b|| = " + exact_decimal(b_norm) +
                     " is not finite: the right-hand side or a boundary value is NaN or infinite (or overflows " +
                     (sizeof(T) == 4 ? "float" : "double") + ") somewhere on the grid");
  if (config.exact) require_finite_exact("poisson.exact", *config.exact, d, config.run.device_expressions ? space : mesh::MemorySpace::host, stream);
  const double setup_seconds = MPI_Wtime() - setup_start;
  if (root) std::printf("  ||b|| = %.6e, tolerance %.1e on ||b - A u|| / ||b||\n", b_norm, config.tolerance);
  // b = 0 (f = 0 and zero boundary values): u = 0 is the solution, there is nothing to solve.
  auto solve = b_norm == 0 ? nullptr : solver->start(problem.u(), problem.f(), b_norm, {});
  const bool on_device = space == mesh::MemorySpace::device;
  if (restarting) {  // the solve continues from the checkpoint's state
    const io::CheckpointReader<3> reader(*restart_from, d);
    const PoissonRestart restart = restore_poisson_checkpoint<T>(reader, solve.get(), deck, d.size(), on_device);
    if (root) {
      std::printf("  restart from %s: iteration %lld, residual %.6e (written by %s on %lld rank(s))\n", reader.path().c_str(),
                  static_cast<long long>(restart.step), restart.relative_residual, reader.content().code_version.c_str(),
                  static_cast<long long>(reader.content().ranks));
      if (!restart.tuning_note.empty()) std::printf("  %s\n", restart.tuning_note.c_str());
      std::fflush(stdout);
    }
  }
  PoissonStepping<T> stepping(std::move(solve), problem.u(), stream, config.max_iterations);
  ResidualProgress<T> progress(stepping, solver->name(), root);
  // Jacobi's on-line tuning took the solve's first sweeps in start(): their checks came before
  // its choice, and are reported before it. A restart's checks were reported by the run before.
  if (restarting) progress.skip_checks_so_far();
  progress.print_new_checks();
  if (tuning && root && config.run.tuning.mode != autotune::TuningMode::off) {
    std::printf("%s", tuning->text().c_str());
    if (tuning->steps_taken > 0)
      std::printf("  tuning took the first %lld sweeps of the solve\n", static_cast<long long>(tuning->steps_taken));
    std::fflush(stdout);
  }

  std::optional<ExactError<T>> error;
  if (config.exact) error.emplace(*config.exact);
  FieldOutput<T, 3> output(
      d, {config.run.output_enabled, config.run.output_dir, config.run.output_name, 0, config.run.output_async},
      [&] {  // written once, at the end
        ghost_width.use = stepping.ghost_width_use();
        auto info = run_info(stepping.report(), solver->name(), device_name, error ? error->value() : std::nullopt, tuning);
        for (auto& entry : ghost_width.attributes()) info.push_back(std::move(entry));
        return info;
      },
      deck.used_attributes(), wall_start);
  output.add_datasets([&](std::int64_t, const FieldAccess<T, 3>&) { return residual_history_datasets(stepping.report()); });
  const auto spectra = attach_spectra(output, d, diagnostics);
  const auto insitu_filters = attach_filters<T, 3>(output, d, filters, stream, config.run.tuning);
  SolveOutcomeLine<T> outcome_line(stepping, solver->name(), error ? &*error : nullptr, root);
  ResidualCsv<T> csv(stepping, config.run.output_dir, config.run.output_name, root);
  SolveCheck<T> solve_check(stepping, solver->name(), config);
  RunLoop<T, 3> loop(d);
  if (error) loop.add(*error);  // before the outcome line and the output, which carry it
  loop.add(progress);
  loop.add(outcome_line);
  loop.add(solve_check);  // a residual that is no longer finite ends the run before anything is written
  if (config.run.output_enabled) {
    loop.add(output);
    loop.add(csv);
  }
  const auto budget = find_time_budget(checkpoint.wall_limit, MPI_Wtime() - wall_start, d.comm());
  CheckpointObserver<T, 3> checkpointer(
      checkpoint, config.run.output_name,
      [&](const RunState<T, 3>& state, const std::string& path) {
        save_poisson_checkpoint<T>(path, state, stepping.solve(), deck, on_device);
      },
      budget ? std::optional<double>(budget->seconds) : std::nullopt, budget ? budget->source : "", root,
      /*at_end=*/false);  // a finished solve has concluded: there is nothing to continue
  loop.add(checkpointer);
  const RunOutcome outcome = loop.run(stepping);
  const solver::SolveReport& report = stepping.report();
  ghost_width.use = stepping.ghost_width_use();

  if (root) {
    std::printf("  %s\n", ghost_width.text().c_str());
    if (config.run.output_enabled && output.written())
      std::printf("output: %s, %s\n", output.xdmf_path().c_str(), csv.path().c_str());
    if (outcome.stop) std::printf("%s\n", stop_line(outcome.step, *outcome.stop).c_str());
    std::fflush(stdout);
  }
  if (root && !summary_path.empty()) {
    RunSummary s;
    s.problem = "poisson3d/" + solver->name();
    s.precision = kernels::core::to_string(config.run.precision);
    s.device = device_name;
    s.transport = d.size() > 1 ? halo::to_string(transport) : "none";
    s.ranks = d.size();
    s.decomposition = {d.dims()[0], d.dims()[1], d.dims()[2]};
    s.grid_points = {grid.n[0] + 1, grid.n[1] + 1, grid.n[2] + 1};
    s.ghost_width = ghost_width;
    s.steps = report.iterations;
    s.tuning_steps = tuning ? tuning->steps_taken : 0;
    s.wall_seconds = MPI_Wtime() - wall_start;
    s.stepping_seconds = report.seconds;
    s.cell_updates_per_second = report.seconds > 0 ? static_cast<double>(grid.interior().size()) * report.iterations / report.seconds : 0;
    s.phases = {{"set-up", setup_seconds},
                {"set-up.fields, f and ||b||", problem_seconds},
                {"set-up.solver", solver_seconds},
                {"set-up.exact solution check", setup_seconds - problem_seconds - solver_seconds},
                {"solve", report.seconds}};
    for (const auto& [name, seconds] : report.phases) s.phases.emplace_back("solve." + name, seconds);
    s.phases.emplace_back("output (stepping waited)", output.seconds());
    s.phases.emplace_back("output writes (background)", output.background_seconds());
    write_summary_json(s, summary_path);
  }
  if (outcome.stop) return outcome.exit_status();
  if (!report.converged) throw RunError(not_converged_message(solver->name(), report.history, config));
  return 0;
}

}  // namespace

int run_poisson3d(Deck& deck, MPI_Comm comm, const std::string& summary_path) {
  const solver::PoissonConfig config = read_poisson_config(deck);
  const DiagnosticsConfig diagnostics = read_diagnostics(deck, {"u"});
  const auto filters = read_filters<3>(deck, {"u"}, config.grid);
  const CheckpointOptions checkpoint = read_checkpoint_options(deck, config.run.output_dir);
  deck.require_all_used();
  const auto place = prepare_run<3>(config.run, config.grid, summary_path, comm, [&](const RunPlacement<3>& p) {
    const int ghost = config.solver == "jacobi" ? solver::plan_jacobi_ghost_width(config, p.decomposition).capacity()
                                                : config.run.halo_width;
    const bool staged = p.space == mesh::MemorySpace::device && p.transport != halo::Transport::nccl;
    return solver::poisson_memory_need(config, p.decomposition.owned(), p.decomposition.size(), ghost, p.space, staged);
  });
  check_checkpoint_dir(checkpoint, comm);
  return kernels::core::dispatch(config.run.precision, [&](auto zero) {
    using T = decltype(zero);
    return run<T>(config, diagnostics, filters, deck, place.decomposition, place.space, place.transport, summary_path,
                  checkpoint);
  });
}

}  // namespace gridflow::app
