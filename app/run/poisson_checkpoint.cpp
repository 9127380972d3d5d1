#include "app/run/poisson_checkpoint.hpp"

#include <memory>
#include <type_traits>
#include <vector>

#include "app/loop/restart.hpp"
#include "mesh/check.hpp"

namespace gridflow::app {

namespace {

/// A host field of `f`'s layout holding a copy of it (ghosts included).
template <class T>
std::unique_ptr<mesh::Field<T, 3>> host_copy(const mesh::Field<T, 3>& f, const std::string& label) {
  auto out = std::make_unique<mesh::Field<T, 3>>(f.owned(), f.ghost_width(), mesh::MemorySpace::host, label);
  out->copy_from(f);
  return out;
}

}  // namespace

template <class T>
void save_poisson_checkpoint(const std::string& path, const RunState<T, 3>& state, solver::PoissonSolve<T>* solve,
                             const Deck& deck, bool on_device) {
  io::CheckpointContent c = base_content(deck, "poisson3d", std::is_same_v<T, float> ? "float" : "double",
                                         state.decomposition.size(), on_device);
  c.step = state.step;
  std::vector<std::unique_ptr<mesh::Field<T, 3>>> copies;
  std::vector<io::NamedField<T, 3>> fields;
  if (solve) {
    for (const auto& [name, field] : solve->state_fields()) {
      copies.push_back(host_copy(*field, name));
      fields.push_back({name, copies.back().get()});
    }
    c.scalars = solve->state_scalars();
    c.integers = solve->tuning_choice();
    std::vector<double> iteration, residual, seconds;
    for (const auto& r : solve->history()) {
      iteration.push_back(static_cast<double>(r.iteration));
      residual.push_back(r.relative_residual);
      seconds.push_back(r.seconds);
    }
    c.arrays = {{"history_iteration", iteration}, {"history_relative_residual", residual}, {"history_seconds", seconds}};
  }
  io::write_checkpoint<T, 3>(path, state.decomposition, c, fields);
}

template <class T>
PoissonRestart restore_poisson_checkpoint(const io::CheckpointReader<3>& reader, solver::PoissonSolve<T>* solve,
                                          const Deck& deck, int ranks, bool on_device) {
  const auto& c = reader.content();
  const std::string& path = reader.path();
  if (c.problem != "poisson3d") throw InputError("key 'problem': the checkpoint " + path + " is of a " + c.problem + " run");
  require_same_physics(c, physics_keys(deck), path);
  PoissonRestart out;
  out.step = c.step;
  if (!solve) return out;
  for (const auto& [name, field] : solve->state_fields()) {
    auto host = host_copy(*field, name);
    reader.read_field(name, *host);
    field->copy_from(*host);
  }
  std::vector<solver::ResidualRecord> history;
  const auto* it = c.array("history_iteration");
  const auto* res = c.array("history_relative_residual");
  const auto* sec = c.array("history_seconds");
  if (it && res && sec && it->size() == res->size() && it->size() == sec->size())
    for (std::size_t i = 0; i < it->size(); ++i) history.push_back({static_cast<std::int64_t>((*it)[i]), (*res)[i], (*sec)[i]});
  out.relative_residual = history.empty() ? 0 : history.back().relative_residual;
  solve->restore(c.step, std::move(history), c.scalars);
  const bool same_place = c.ranks == ranks && c.memory_space == (on_device ? "device" : "host");
  if (!c.integers.empty()) {
    if (same_place) solve->apply_tuning_choice(c.integers);
    else
      out.tuning_note = "the checkpoint's tuning (" + std::to_string(c.ranks) + " rank(s), " + c.memory_space +
                        ") does not apply here: the rest of the solve runs with the defaults, untuned";
  }
  return out;
}

template void save_poisson_checkpoint<float>(const std::string&, const RunState<float, 3>&, solver::PoissonSolve<float>*,
                                             const Deck&, bool);
template void save_poisson_checkpoint<double>(const std::string&, const RunState<double, 3>&, solver::PoissonSolve<double>*,
                                              const Deck&, bool);
template PoissonRestart restore_poisson_checkpoint<float>(const io::CheckpointReader<3>&, solver::PoissonSolve<float>*,
                                                          const Deck&, int, bool);
template PoissonRestart restore_poisson_checkpoint<double>(const io::CheckpointReader<3>&, solver::PoissonSolve<double>*,
                                                           const Deck&, int, bool);

}  // namespace gridflow::app
