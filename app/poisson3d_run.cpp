#include "app/poisson3d_run.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <variant>
#include <vector>

#include "gridflow/config.hpp"
#include "halo/transport.hpp"
#include "io/output_series.hpp"
#include "mesh/check.hpp"
#include "app/poisson3d_deck.hpp"
#include "solver/jacobi_solver.hpp"
#include "solver/poisson_problem.hpp"
#include "solver/poisson_solver.hpp"
#include "solver/evaluate_on_box.hpp"
#include "app/ghost_width_report.hpp"
#include "app/run_setup.hpp"
#include "app/run_summary.hpp"

namespace gridflow::app {

namespace {

/// Max over the owned points of |u - exact|, over all ranks.
template <class T>
double max_error(const mesh::Field<T, 3>& u_host, const solver::CoordinateFunction& exact, const mesh::Decomposition<3>& d) {
  double err = 0;
  solver::evaluate_on_box(exact, d.grid(), d.owned(), [&](const auto& p, double v) {
    err = std::max(err, std::abs(static_cast<double>(u_host(p[0], p[1], p[2])) - v));
  });
  double global = 0;
  GRIDFLOW_MPI_CHECK(MPI_Allreduce(&err, &global, 1, MPI_DOUBLE, MPI_MAX, d.comm()));
  return global;
}

template <class T>
void run(const solver::PoissonConfig& config, const Deck& deck, const mesh::Decomposition<3>& d, mesh::MemorySpace space,
         halo::Transport transport, const std::string& summary_path) {
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
  solver::PoissonProblem<T> problem(config, d, space, stream, ghost_width.plan.capacity());
  const solver::PoissonContext context{config, d, space, stream, transport};
  std::optional<autotune::OnlineTuningResult> tuning;
  const auto on_tuned = [&](const autotune::OnlineTuningResult& result) {
    tuning = result;
    if (root && config.run.tuning.mode != autotune::TuningMode::off) {
      std::printf("%s", result.text().c_str());
      if (result.steps_taken > 0)
        std::printf("  tuning took the first %lld sweeps of the solve\n", static_cast<long long>(result.steps_taken));
      std::fflush(stdout);
    }
  };
  std::unique_ptr<solver::PoissonSolver<T>> solver;
  const solver::JacobiSolver<T>* jacobi = nullptr;  // the deep-halo solver, whose ghost width is reported
  if (config.solver == "jacobi") {
    auto j = std::make_unique<solver::JacobiSolver<T>>(context, solver::JacobiOnlineTuning{ghost_width.plan, on_tuned});
    jacobi = j.get();
    solver = std::move(j);
  } else {
    solver = solver::make_poisson_solver<T>(context);
  }
  const double b_norm = problem.b_norm();
  if (root) std::printf("  ||b|| = %.6e, tolerance %.1e on ||b - A u|| / ||b||\n", b_norm, config.tolerance);
  solver::SolveReport report;
  if (b_norm == 0) {
    report.converged = true;  // f = 0 and zero boundary values: u = 0 is the solution
  } else {
    report = solver->solve(problem.u(), problem.f(), b_norm, [&](const solver::ResidualRecord& r) {
      if (root) {
        std::printf("  %s %8lld  residual %.6e  %.3f s\n", solver->name().c_str(), static_cast<long long>(r.iteration),
                    r.relative_residual, r.seconds);
        std::fflush(stdout);
      }
    });
    if (jacobi) ghost_width.use = jacobi->ghost_width_use();
  }

  mesh::Field<T, 3> u_host(d.owned(), problem.u().ghost_width(), mesh::MemorySpace::host, "u_host");
  u_host.copy_from(problem.u());
  std::optional<double> error;
  if (config.exact) error = max_error(u_host, *config.exact, d);
  if (root) {
    std::printf("%s: %s after %lld iteration(s), relative residual %.6e, %.3f s%s\n", report.converged ? "converged" : "NOT converged",
                solver->name().c_str(), static_cast<long long>(report.iterations), report.relative_residual, report.seconds,
                error ? (", max error against poisson.exact " + std::to_string(*error)).c_str() : "");
    std::printf("  %s\n", ghost_width.text().c_str());
    std::fflush(stdout);
  }

  if (config.run.output_enabled) {
    std::vector<double> it, res, sec;
    for (const auto& r : report.history) {
      it.push_back(static_cast<double>(r.iteration));
      res.push_back(r.relative_residual);
      sec.push_back(r.seconds);
    }
    io::Attributes info{{"code_version", std::string(GRIDFLOW_VERSION) + " (" + GRIDFLOW_GIT_HASH + ")"},
                        {"problem", std::string("poisson3d")},
                        {"solver", solver->name()},
                        {"device", device_name},
                        {"converged", report.converged},
                        {"iterations", std::int64_t(report.iterations)},
                        {"relative_residual", report.relative_residual},
                        {"solve_seconds", report.seconds},
                        {"residual_history_iteration", it},
                        {"residual_history_relative_residual", res},
                        {"residual_history_seconds", sec}};
    if (error) info.emplace_back("max_error", *error);
    for (auto& entry : ghost_width.attributes()) info.push_back(std::move(entry));
    if (tuning)
      for (const auto& [name, value] : tuning->attributes())
        std::visit([&, &n = name](const auto& v) { info.emplace_back(n, v); }, value);
    io::OutputSeries<3> output(d, config.run.output_dir, config.run.output_name, info, deck.used_attributes());
    output.write<T>({report.iterations, 0.0, 0.0, MPI_Wtime() - wall_start}, {{"u", &u_host}});
    if (root) {
      const auto csv = std::filesystem::path(config.run.output_dir) / (config.run.output_name + "_residual.csv");
      std::ofstream out(csv);
      out << "iteration,relative_residual,seconds\n";
      out.precision(17);
      for (const auto& r : report.history) out << r.iteration << ',' << r.relative_residual << ',' << r.seconds << '\n';
      if (!out) throw Error("cannot write " + csv.string());
      std::printf("output: %s, %s\n", output.xdmf_path().c_str(), csv.c_str());
    }
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
    s.phases = {{"solve", report.seconds}};
    write_summary_json(s, summary_path);
  }
  if (!report.converged)
    throw Error("the " + solver->name() + " solver did not reach the tolerance in poisson.max_iterations = " +
                std::to_string(config.max_iterations));
}

}  // namespace

void run_poisson3d(Deck& deck, MPI_Comm comm, const std::string& summary_path) {
  const solver::PoissonConfig config = read_poisson_config(deck);
  deck.require_all_used();
  const auto place = place_run(config.run, config.grid, comm);
  if (config.run.output_enabled) prepare_output_directory(config.run.output_dir, comm);
  kernels::core::dispatch(config.run.precision, [&](auto zero) {
    using T = decltype(zero);
    run<T>(config, deck, place.decomposition, place.space, place.transport, summary_path);
  });
}

}  // namespace gridflow::app
