#pragma once
// A Poisson run's checkpoint: the solve's state between two steps (the iterate and, for CG, its
// residual and search direction; scalars; step; residual history), the tuning's choice; and the
// way back from one into a solve started afresh on the same problem.
#include <cstdint>
#include <string>

#include "app/deck/deck.hpp"
#include "app/loop/run_state.hpp"
#include "io/checkpoint_file.hpp"
#include "solver/poisson_solver.hpp"

namespace gridflow::app {

/// Collective: writes the checkpoint of `solve` (null: nothing to solve, step 0) at `path`.
template <class T>
void save_poisson_checkpoint(const std::string& path, const RunState<T, 3>& state, solver::PoissonSolve<T>* solve,
                             const Deck& deck, bool on_device);

struct PoissonRestart {
  std::int64_t step = 0;
  double relative_residual = 0;  ///< at the last check before the checkpoint
  std::string tuning_note;       ///< when the checkpoint's tuning does not apply here
};

/// Collective: checks the checkpoint against this run (problem, physics keys: InputError naming the
/// key) and puts its state into `solve`, just started on the same problem (null: nothing to solve,
/// only the checks).
template <class T>
PoissonRestart restore_poisson_checkpoint(const io::CheckpointReader<3>& reader, solver::PoissonSolve<T>* solve,
                                          const Deck& deck, int ranks, bool on_device);

extern template void save_poisson_checkpoint<float>(const std::string&, const RunState<float, 3>&, solver::PoissonSolve<float>*,
                                                    const Deck&, bool);
extern template void save_poisson_checkpoint<double>(const std::string&, const RunState<double, 3>&,
                                                     solver::PoissonSolve<double>*, const Deck&, bool);
extern template PoissonRestart restore_poisson_checkpoint<float>(const io::CheckpointReader<3>&, solver::PoissonSolve<float>*,
                                                                 const Deck&, int, bool);
extern template PoissonRestart restore_poisson_checkpoint<double>(const io::CheckpointReader<3>&, solver::PoissonSolve<double>*,
                                                                  const Deck&, int, bool);

}  // namespace gridflow::app
