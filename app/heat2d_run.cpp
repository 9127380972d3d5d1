#include "app/heat2d_run.hpp"

#include "app/heat2d_deck.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>

#include "gridflow/config.hpp"
#include "io/output_series.hpp"
#include "kernels/core/min_max.hpp"
#include "mesh/check.hpp"
#include "mesh/decomposition.hpp"
#include "halo/transport.hpp"
#include "solver/device_tuning.hpp"
#include "solver/heat_solver.hpp"
#include "solver/heat_run_tuning.hpp"
#include "app/progress.hpp"
#include "app/run_setup.hpp"
#include "app/run_summary.hpp"

namespace gridflow::app {

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
kernels::core::MinMax<double> global_min_max(const mesh::Field<T, 2>& u, const mesh::Box<2>& owned, StreamHandle stream,
                                               MPI_Comm comm) {
  const auto local = kernels::core::min_max(u, owned, stream);
  double in[3] = {-static_cast<double>(local.min), static_cast<double>(local.max), local.finite ? 0.0 : 1.0}, out[3];
  GRIDFLOW_MPI_CHECK(MPI_Allreduce(in, out, 3, MPI_DOUBLE, MPI_MAX, comm));
  return {-out[0], out[1], out[2] == 0.0};
}

std::string describe_device(mesh::MemorySpace space) {
  return space == mesh::MemorySpace::device ? mesh::current_gpu_description() : "cpu (Kokkos host)";
}

template <class T>
void run(const solver::HeatConfig& config, const Deck& deck, const mesh::Decomposition<2>& decomposition,
         mesh::MemorySpace space, halo::Transport transport, const std::string& summary_path) {
  const MPI_Comm comm = decomposition.comm();
  const bool root = decomposition.rank() == 0;
  const double wall_start = MPI_Wtime();
  std::optional<mesh::Stream> stream_owner;
  if (space == mesh::MemorySpace::device) stream_owner.emplace();
  const StreamHandle stream = stream_owner ? stream_owner->get() : nullptr;
  const auto& grid = decomposition.grid();
  const bool device_tuned = solver::device_is_tuned(config.run, space, decomposition, /*remeasure=*/false);
  std::string device_name = describe_device(space);

  if (root) {
    const std::string device_line =
        device_tuned ? "auto: " + device_name + " or " + describe_device(mesh::MemorySpace::host) + ", measured"
                     : device_name;
    std::printf("gridflow %s (%s): heat2d, %lld x %lld points, %s, %d rank(s) as %d x %d, device %s\n", GRIDFLOW_VERSION,
                GRIDFLOW_GIT_HASH, static_cast<long long>(grid.n[0] + 1), static_cast<long long>(grid.n[1] + 1),
                kernels::core::to_string(config.run.precision), decomposition.size(), decomposition.dims()[0], decomposition.dims()[1],
                device_line.c_str());
    std::printf("  a = %g, dt = %.6e (stability bound %.6e), %lld steps to t = %.6e, ghost width %d%s\n", config.a, config.dt,
                config.dt_stable, static_cast<long long>(config.steps), static_cast<double>(config.steps) * config.dt,
                config.run.halo_width,
                decomposition.size() > 1 ? (transport == halo::Transport::nccl ? ", halo over NCCL" : ", halo over MPI") : "");
    std::fflush(stdout);
  }

  const std::vector<int> widths = solver::heat_exchange_widths(config.run, decomposition);
  const int ghost_capacity = std::max(config.run.halo_width, widths.empty() ? 1 : widths.back());
  const double setup_start = MPI_Wtime();
  auto started = std::make_unique<solver::HeatSolver<T>>(config, decomposition, space, stream, transport,
                                                 kernels::stencil::HeatCudaParams{}, ghost_capacity);
  const double setup_seconds = MPI_Wtime() - setup_start;  // fields and their initial values

  std::optional<io::OutputSeries<2>> output;
  auto open_output = [&] {
    io::Attributes run_info{{"code_version", std::string(GRIDFLOW_VERSION) + " (" + GRIDFLOW_GIT_HASH + ")"},
                            {"problem", std::string("heat2d")},
                            {"device", device_name},
                            {"decomposition", std::vector<std::int64_t>{decomposition.dims()[0], decomposition.dims()[1]}}};
    output.emplace(decomposition, config.run.output_dir, config.run.output_name, run_info, deck.used_attributes());
  };
  const std::int64_t every = config.run.output_every;
  // Step 0 is written before the tuning takes steps. When the tuning chooses the device that
  // /Info names, the file waits for the choice and step 0 waits in host_copy (a small grid).
  const bool step0_waits = device_tuned && every > 0 && config.run.output_enabled;
  std::optional<mesh::Field<T, 2>> host_copy;  // device fields are written through it
  if ((space == mesh::MemorySpace::device && config.run.output_enabled) || step0_waits)
    host_copy.emplace(decomposition.owned(), ghost_capacity, mesh::MemorySpace::host, "u_host");
  solver::PhaseTimer output_timer(mesh::MemorySpace::host, nullptr), progress_timer(mesh::MemorySpace::host, nullptr);
  std::int64_t last_written = -1;
  auto write = [&](const mesh::Field<T, 2>& u, std::int64_t step) {
    if (!config.run.output_enabled) return;
    solver::PhaseScope t(output_timer);
    const mesh::Field<T, 2>* host = &u;
    if (u.space() == mesh::MemorySpace::device) {
      host_copy->copy_from(u);  // waits for the steps queued on the device
      host = &*host_copy;
    }
    output->write<T>({step, static_cast<double>(step) * config.dt, config.dt, MPI_Wtime() - wall_start}, {{"u", host}});
    last_written = step;
  };

  const std::int64_t steps = config.steps;
  const std::int64_t report_every = config.run.progress_every > 0 ? config.run.progress_every : std::max<std::int64_t>(1, steps / 10);
  const std::int64_t warmup = steps >= 20 ? std::min<std::int64_t>(10, steps / 10) : 0;
  const double cells_per_step = static_cast<double>(grid.interior().size());
  double stepping_seconds = 0;  // wall time of steps after warm-up, output and reports excluded

  if (step0_waits) host_copy->copy_from(started->solution());
  if (!device_tuned) open_output();
  if (every > 0 && !step0_waits) write(started->solution(), 0);
  // The tuning's runs are the run's first steps; they stop short of the first output.
  const double tuning_start = MPI_Wtime();
  auto tuned = solver::tune_heat_run(std::move(started), config, decomposition, widths, every > 0 ? std::min(every, steps) : steps);
  solver::HeatSolver<T>& solver = *tuned.solver;
  solver.wait();
  const double tuning_seconds = MPI_Wtime() - tuning_start;  // its steps are in the stencil phases too
  device_name = describe_device(solver.space());
  if (root && config.run.tuning.mode != autotune::TuningMode::off) {
    std::printf("%s", tuned.text().c_str());
    if (tuned.device) std::printf("  device: %s\n", device_name.c_str());
    if (tuned.steps_taken() > 0)
      std::printf("  tuning took %lld of the %lld steps\n", static_cast<long long>(tuned.steps_taken()),
                  static_cast<long long>(steps));
    std::fflush(stdout);
  }
  if (!output) open_output();
  output->add_run_attributes(to_io_attributes(tuned.attributes()));
  if (step0_waits) write(*host_copy, 0);
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
    solver.wait();
    GRIDFLOW_MPI_CHECK(MPI_Barrier(comm));
    if (timed) stepping_seconds += MPI_Wtime() - t0;

    const double rate = stepping_seconds > 0 ? cells_per_step * static_cast<double>(solver.step() - first_timed) / stepping_seconds : 0;
    if (solver.step() % report_every == 0 || solver.step() == steps) {
      solver::PhaseScope t(progress_timer);
      const auto mm = global_min_max(solver.solution(), decomposition.owned(), solver.stream(), comm);
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
    if (every > 0 && solver.step() % every == 0) write(solver.solution(), solver.step());
  }
  if (last_written != solver.step()) write(solver.solution(), solver.step());

  const auto times = solver.times();  // steps a device choice took on the other device are not in them
  const double total = max_over_ranks(MPI_Wtime() - wall_start, comm);
  std::vector<std::pair<std::string, double>> phases{{"stencil interior", times.interior},
                                                     {"stencil edge strips", times.edge},
                                                     {"boundary values", times.boundary},
                                                     {"ghost exchange", times.exchange},
                                                     {"output", output_timer.seconds()},
                                                     {"progress reductions", progress_timer.seconds()},
                                                     {"set-up", setup_seconds},
                                                     {"tuning, its steps included", tuning_seconds}};
  for (auto& [name, seconds] : phases) seconds = max_over_ranks(seconds, comm);
  const double rate = stepping_seconds > 0 ? cells_per_step * static_cast<double>(steps - first_timed) / stepping_seconds : 0;
  if (root) {
    std::printf("done: %lld steps to t = %.6e in %.3f s; %.3f Gcell/s (%.3f per rank, %lld warm-up/tuning steps excluded)\n",
                static_cast<long long>(steps), solver.time(), total, rate * 1e-9, rate * 1e-9 / decomposition.size(),
                static_cast<long long>(first_timed));
    std::printf("%s", format_timer_table(phases, total).c_str());
    if (config.run.output_enabled) std::printf("output: %s\n", output->xdmf_path().c_str());
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
  const solver::HeatConfig config = read_heat_config(deck);
  deck.require_all_used();
  const auto place = place_run(config.run, config.grid, comm);
  if (config.run.output_enabled) prepare_output_directory(config.run.output_dir, comm);
  kernels::core::dispatch(config.run.precision, [&](auto zero) {
    using T = decltype(zero);
    run<T>(config, deck, place.decomposition, place.space, place.transport, summary_path);
  });
}

}  // namespace gridflow::app
