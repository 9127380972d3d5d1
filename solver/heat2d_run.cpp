#include "solver/heat2d_run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <optional>

#include "gridflow/config.hpp"
#include "io/output_series.hpp"
#include "kernels/reduce/min_max.hpp"
#include "mesh/check.hpp"
#include "mesh/decomposition.hpp"
#include "halo/transport.hpp"
#include "solver/heat_solver.hpp"
#include "solver/heat_tuning.hpp"
#include "solver/progress.hpp"
#include "solver/run_setup.hpp"
#include "solver/run_summary.hpp"

namespace gridflow::solver {

namespace {

io::Attributes to_io_attributes(const autotune::ReportAttributes& report) {
  io::Attributes out;
  for (const auto& [name, value] : report) std::visit([&, &n = name](const auto& v) { out.emplace_back(n, v); }, value);
  return out;
}

double max_over_ranks(double v, MPI_Comm comm) {
  double out = 0;
  GRIDFLOW_MPI_CHECK(MPI_Allreduce(&v, &out, 1, MPI_DOUBLE, MPI_MAX, comm));
  return out;
}

template <class T>
kernels::reduce::MinMax<double> global_min_max(const mesh::Field<T, 2>& u, const mesh::Box<2>& owned, StreamHandle stream,
                                               MPI_Comm comm) {
  const auto local = kernels::reduce::min_max(u, owned, stream);
  double in[3] = {-static_cast<double>(local.min), static_cast<double>(local.max), local.finite ? 0.0 : 1.0}, out[3];
  GRIDFLOW_MPI_CHECK(MPI_Allreduce(in, out, 3, MPI_DOUBLE, MPI_MAX, comm));
  return {-out[0], out[1], out[2] == 0.0};
}

template <class T>
void run(const HeatConfig& config, const Deck& deck, const mesh::Decomposition<2>& decomposition,
         mesh::MemorySpace space, halo::Transport transport, const std::string& summary_path) {
  const MPI_Comm comm = decomposition.comm();
  const bool root = decomposition.rank() == 0;
  const double wall_start = MPI_Wtime();
  std::optional<mesh::Stream> stream_owner;
  if (space == mesh::MemorySpace::device) stream_owner.emplace();
  const StreamHandle stream = stream_owner ? stream_owner->get() : nullptr;
  auto wait_for_device = [&] {
    if (stream_owner) mesh::synchronize(stream);
  };
  const auto& grid = decomposition.grid();
  const std::string device_name = space == mesh::MemorySpace::device ? mesh::current_gpu_description() : "cpu (Kokkos host)";

  if (root) {
    std::printf("gridflow %s (%s): heat2d, %lld x %lld points, %s, %d rank(s) as %d x %d, device %s\n", GRIDFLOW_VERSION,
                GRIDFLOW_GIT_HASH, static_cast<long long>(grid.n[0] + 1), static_cast<long long>(grid.n[1] + 1),
                config.run.precision.c_str(), decomposition.size(), decomposition.dims()[0], decomposition.dims()[1],
                device_name.c_str());
    std::printf("  a = %g, dt = %.6e (stability bound %.6e), %lld steps to t = %.6e, ghost width %d%s\n", config.a, config.dt,
                config.dt_stable, static_cast<long long>(config.steps), static_cast<double>(config.steps) * config.dt,
                config.run.halo_width,
                decomposition.size() > 1 ? (transport == halo::Transport::nccl ? ", halo over NCCL" : ", halo over MPI") : "");
    std::fflush(stdout);
  }

  const std::vector<int> widths = heat_exchange_widths(config.run, decomposition);
  const int ghost_capacity = std::max(config.run.halo_width, widths.empty() ? 1 : widths.back());
  HeatSolver<T> solver(config, decomposition, space, stream, transport, {}, ghost_capacity);

  io::Attributes run_info{{"code_version", std::string(GRIDFLOW_VERSION) + " (" + GRIDFLOW_GIT_HASH + ")"},
                          {"problem", std::string("heat2d")},
                          {"device", device_name},
                          {"decomposition", std::vector<std::int64_t>{decomposition.dims()[0], decomposition.dims()[1]}}};
  io::OutputSeries<2> output(decomposition, config.run.output_dir, config.run.output_name, run_info, deck.used_attributes());
  std::optional<mesh::Field<T, 2>> host_copy;
  if (space == mesh::MemorySpace::device && config.run.output_enabled) host_copy.emplace(decomposition.owned(), ghost_capacity, mesh::MemorySpace::host, "u_host");
  PhaseTimer output_timer(mesh::MemorySpace::host, nullptr), progress_timer(mesh::MemorySpace::host, nullptr);
  std::int64_t last_written = -1;
  auto write = [&] {
    if (!config.run.output_enabled) return;
    PhaseScope t(output_timer);
    const mesh::Field<T, 2>* u = &solver.solution();
    if (host_copy) {
      wait_for_device();
      host_copy->copy_from(*u);
      u = &*host_copy;
    }
    output.write<T>({solver.step(), solver.time(), config.dt, MPI_Wtime() - wall_start}, {{"u", u}});
    last_written = solver.step();
  };

  const std::int64_t steps = config.steps;
  const std::int64_t every = config.run.output_every;
  const std::int64_t report_every = config.run.progress_every > 0 ? config.run.progress_every : std::max<std::int64_t>(1, steps / 10);
  const std::int64_t warmup = steps >= 20 ? std::min<std::int64_t>(10, steps / 10) : 0;
  const double cells_per_step = static_cast<double>(grid.interior().size());
  double stepping_seconds = 0;  // wall time of steps after warm-up, output and reports excluded

  if (every > 0) write();
  {
    // The tuning's runs are the run's first steps; they stop short of the first output.
    const std::int64_t tuning_steps = every > 0 ? std::min(every, steps) : steps;
    const auto tuning = tune_heat(solver, config, decomposition, space, stream, widths, tuning_steps);
    wait_for_device();
    if (root && config.run.tuning.mode != TuningMode::off) {
      std::printf("%s", tuning.text().c_str());
      if (tuning.steps_taken > 0)
        std::printf("  tuning took %lld of the %lld steps\n", static_cast<long long>(tuning.steps_taken),
                    static_cast<long long>(steps));
      std::fflush(stdout);
    }
    output.add_run_attributes(to_io_attributes(tuning.attributes()));
  }
  // Steps before this one are excluded from the throughput: warm-up, and tuning (timed apart).
  const std::int64_t first_timed = std::max(warmup, solver.step());
  while (solver.step() < steps) {
    std::int64_t next = steps;
    if (every > 0) next = std::min(next, (solver.step() / every + 1) * every);
    next = std::min(next, (solver.step() / report_every + 1) * report_every);
    if (solver.step() < first_timed) next = std::min(next, first_timed);
    const bool timed = solver.step() >= first_timed;
    const double t0 = MPI_Wtime();
    solver.advance(next - solver.step());
    wait_for_device();
    GRIDFLOW_MPI_CHECK(MPI_Barrier(comm));
    if (timed) stepping_seconds += MPI_Wtime() - t0;

    const double rate = stepping_seconds > 0 ? cells_per_step * static_cast<double>(solver.step() - first_timed) / stepping_seconds : 0;
    if (solver.step() % report_every == 0 || solver.step() == steps) {
      PhaseScope t(progress_timer);
      const auto mm = global_min_max(solver.solution(), decomposition.owned(), stream, comm);
      if (!mm.finite)
        throw Error(fmt::format("the solution is no longer finite at step {} (t = {:.6e}); with dt = {:.6e} inside the "
                                "stability bound this points at the initial or boundary expressions",
                                solver.step(), solver.time(), config.dt));
      if (root) {
        const double eta = rate > 0 ? cells_per_step * static_cast<double>(steps - solver.step()) / rate : -1;
        std::puts(format_progress({solver.step(), steps, solver.time(), mm.min, mm.max, rate, eta}).c_str());
        std::fflush(stdout);
      }
    }
    if (every > 0 && solver.step() % every == 0) write();
  }
  if (last_written != solver.step()) write();

  const auto times = solver.times();
  const double total = max_over_ranks(MPI_Wtime() - wall_start, comm);
  std::vector<std::pair<std::string, double>> phases{{"stencil interior", times.interior},
                                                     {"stencil edge strips", times.edge},
                                                     {"boundary values", times.boundary},
                                                     {"ghost exchange", times.exchange},
                                                     {"output", output_timer.seconds()},
                                                     {"progress reductions", progress_timer.seconds()}};
  for (auto& [name, seconds] : phases) seconds = max_over_ranks(seconds, comm);
  const double rate = stepping_seconds > 0 ? cells_per_step * static_cast<double>(steps - first_timed) / stepping_seconds : 0;
  if (root) {
    std::printf("done: %lld steps to t = %.6e in %.3f s; %.3f Gcell/s (%.3f per rank, %lld warm-up/tuning steps excluded)\n",
                static_cast<long long>(steps), solver.time(), total, rate * 1e-9, rate * 1e-9 / decomposition.size(),
                static_cast<long long>(first_timed));
    std::printf("%s", format_timer_table(phases, total).c_str());
    if (config.run.output_enabled) std::printf("output: %s\n", output.xdmf_path().c_str());
    std::fflush(stdout);
    if (!summary_path.empty()) {
      RunSummary s;
      s.problem = "heat2d";
      s.precision = config.run.precision;
      s.device = device_name;
      s.transport = decomposition.size() > 1 ? halo::to_string(transport) : "none";
      s.ranks = decomposition.size();
      s.decomposition = {decomposition.dims()[0], decomposition.dims()[1]};
      s.grid_points = {grid.n[0] + 1, grid.n[1] + 1};
      s.halo_width = solver.tunables().exchange_width;
      s.steps = steps;
      s.warmup_steps = first_timed;
      s.wall_seconds = total;
      s.stepping_seconds = stepping_seconds;
      s.cell_updates_per_second = rate;
      s.phases = phases;
      write_summary_json(s, summary_path);
    }
  }
}

}  // namespace

void run_heat2d(Deck& deck, MPI_Comm comm, const std::string& summary_path) {
  const HeatConfig config = read_heat_config(deck);
  deck.require_all_used();
  const auto place = place_run(config.run, config.grid, comm);
  if (config.run.output_enabled) prepare_output_directory(config.run.output_dir, comm);
  if (config.run.precision == "float") run<float>(config, deck, place.decomposition, place.space, place.transport, summary_path);
  else run<double>(config, deck, place.decomposition, place.space, place.transport, summary_path);
}

}  // namespace gridflow::solver
