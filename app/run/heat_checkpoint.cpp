#include "app/run/heat_checkpoint.hpp"

#include <type_traits>

#include "app/loop/restart.hpp"
#include "mesh/check.hpp"

namespace gridflow::app {

namespace {

template <class T>
const char* precision_name() {
  return std::is_same_v<T, float> ? "float" : "double";
}

}  // namespace

template <class T>
void save_heat_checkpoint(const std::string& path, const RunState<T, 2>& state, const solver::HeatSolver<T>& solver,
                          const Deck& deck, const std::vector<io::XdmfStep>& series) {
  io::CheckpointContent c = base_content(deck, "heat2d", precision_name<T>(), state.decomposition.size(),
                                         solver.space() == mesh::MemorySpace::device);
  c.step = state.step;
  c.time = state.time;
  c.dt = state.dt;
  const auto& t = solver.tunables();
  c.integers = {{"tuning.ghost_width", t.ghost_width},
                {"tuning.fused_steps", t.fused_steps},
                {"tuning.transport", static_cast<std::int64_t>(t.transport)},
                {"tuning.block_x", t.cuda.block_x},
                {"tuning.block_y", t.cuda.block_y},
                {"tuning.cells_per_thread", t.cuda.cells_per_thread},
                {"tuning.stream_cells_x", t.cuda.stream_cells_x},
                {"tuning.segment_rows", t.cuda.segment_rows}};
  store_series(series, c);
  io::write_checkpoint<T, 2>(path, state.decomposition, c, {{"u", &state.fields.host("u")}});
}

template <class T>
HeatRestart restore_heat_checkpoint(const io::CheckpointReader<2>& reader, solver::HeatSolver<T>& solver, const Deck& deck,
                                    double dt, std::int64_t steps, const std::string& output_name, int ranks) {
  const auto& c = reader.content();
  const std::string& path = reader.path();
  if (c.problem != "heat2d") throw InputError("key 'problem': the checkpoint " + path + " is of a " + c.problem + " run");
  require_same_physics(c, physics_keys(deck), path);
  if (c.dt != dt)
    throw InputError("key 'heat.dt': this run's dt = " + exact_decimal(dt) + " differs from the checkpoint's " + exact_decimal(c.dt) +
                     " (" + path + "); heat.t_end, heat.steps, heat.dt and heat.safety must give the same dt");
  if (c.step > steps)
    throw InputError("key 'heat.steps' (or heat.t_end): the run ends at step " + std::to_string(steps) + ", before the checkpoint's step " +
                     std::to_string(c.step) + " (" + path + ")");

  // Read into a copy of the solution, so that its ghosts and layout are the solver's own.
  const auto& u = solver.solution();
  mesh::Field<T, 2> host(u.owned(), u.ghost_width(), mesh::MemorySpace::host, "u_restart");
  host.copy_from(u);
  reader.read_field("u", host);
  solver.restore(c.step, host);

  HeatRestart out;
  out.step = c.step;
  out.series = stored_series(c, output_name, {"u"});
  const std::string here = solver.space() == mesh::MemorySpace::device ? "device" : "host";
  if (c.ranks == ranks && c.memory_space == here) {
    solver::HeatTunables t;
    t.ghost_width = static_cast<int>(c.integer("tuning.ghost_width").value_or(1));
    t.fused_steps = static_cast<int>(c.integer("tuning.fused_steps").value_or(1));
    t.transport = static_cast<halo::Transport>(c.integer("tuning.transport").value_or(0));
    t.cuda.block_x = static_cast<int>(c.integer("tuning.block_x").value_or(t.cuda.block_x));
    t.cuda.block_y = static_cast<int>(c.integer("tuning.block_y").value_or(t.cuda.block_y));
    t.cuda.cells_per_thread = static_cast<int>(c.integer("tuning.cells_per_thread").value_or(t.cuda.cells_per_thread));
    t.cuda.stream_cells_x = static_cast<int>(c.integer("tuning.stream_cells_x").value_or(t.cuda.stream_cells_x));
    t.cuda.segment_rows = static_cast<int>(c.integer("tuning.segment_rows").value_or(t.cuda.segment_rows));
    if (t.ghost_width <= solver.ghost_capacity()) out.tunables = t;
  }
  if (!out.tunables)
    out.tuning_note = "the checkpoint's tuning (" + std::to_string(c.ranks) + " rank(s), " + c.memory_space + ") does not apply to " +
                      std::to_string(ranks) + " rank(s) on the " + here + ": tuned again";
  return out;
}

template void save_heat_checkpoint<float>(const std::string&, const RunState<float, 2>&, const solver::HeatSolver<float>&,
                                          const Deck&, const std::vector<io::XdmfStep>&);
template void save_heat_checkpoint<double>(const std::string&, const RunState<double, 2>&, const solver::HeatSolver<double>&,
                                           const Deck&, const std::vector<io::XdmfStep>&);
template HeatRestart restore_heat_checkpoint<float>(const io::CheckpointReader<2>&, solver::HeatSolver<float>&, const Deck&, double,
                                                    std::int64_t, const std::string&, int);
template HeatRestart restore_heat_checkpoint<double>(const io::CheckpointReader<2>&, solver::HeatSolver<double>&, const Deck&,
                                                     double, std::int64_t, const std::string&, int);

}  // namespace gridflow::app
