#pragma once
// A heat run's checkpoint: the solution u, step, time and dt, the tuning's choice (launch shape,
// ghost width, fused steps, transport) and the output series so far; and the way back from one.
#include <optional>
#include <string>
#include <vector>

#include "app/deck/deck.hpp"
#include "app/loop/run_state.hpp"
#include "io/checkpoint_file.hpp"
#include "io/xdmf.hpp"
#include "solver/heat_solver.hpp"

namespace gridflow::app {

/// Collective: writes the checkpoint of `solver` at `path` (the fields through `state`'s host copy).
template <class T>
void save_heat_checkpoint(const std::string& path, const RunState<T, 2>& state, const solver::HeatSolver<T>& solver,
                          const Deck& deck, const std::vector<io::XdmfStep>& series);

/// What a restarted heat run takes from its checkpoint besides the solution.
struct HeatRestart {
  std::int64_t step = 0;
  std::vector<io::XdmfStep> series;                  ///< output steps written before the checkpoint
  std::optional<solver::HeatTunables> tunables;      ///< the tuning's choice, when it applies here
  std::string tuning_note;                           ///< why it does not, when it does not
};

/// Collective: checks `reader`'s checkpoint against this run (problem, physics keys, dt, step
/// within the run: InputError naming the key otherwise) and puts its solution into `solver`. `ranks`:
/// this run's rank count (the tuning's choice applies on the same count and memory space only).
template <class T>
HeatRestart restore_heat_checkpoint(const io::CheckpointReader<2>& reader, solver::HeatSolver<T>& solver, const Deck& deck,
                                    double dt, std::int64_t steps, const std::string& output_name, int ranks);

extern template void save_heat_checkpoint<float>(const std::string&, const RunState<float, 2>&, const solver::HeatSolver<float>&,
                                                 const Deck&, const std::vector<io::XdmfStep>&);
extern template void save_heat_checkpoint<double>(const std::string&, const RunState<double, 2>&,
                                                  const solver::HeatSolver<double>&, const Deck&, const std::vector<io::XdmfStep>&);
extern template HeatRestart restore_heat_checkpoint<float>(const io::CheckpointReader<2>&, solver::HeatSolver<float>&, const Deck&,
                                                           double, std::int64_t, const std::string&, int);
extern template HeatRestart restore_heat_checkpoint<double>(const io::CheckpointReader<2>&, solver::HeatSolver<double>&,
                                                            const Deck&, double, std::int64_t, const std::string&, int);

}  // namespace gridflow::app
