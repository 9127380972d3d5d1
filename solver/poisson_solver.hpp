#pragma once
// PoissonSolver<T>: the one interface of the Jacobi, multigrid, CG-multigrid and spectral solvers.
//
// Every solver works on the distributed field u (owned box + ghosts, on this rank's memory space),
// whose boundary points already hold the Dirichlet values and whose interior holds the initial
// guess, and on f, the right-hand side at the owned points. It solves the discrete 7-point system
// A u = f on the interior points until the relative residual ||f - A u||_2 / ||b||_2 is under the
// tolerance, where b is the interior system's right-hand side with the boundary values moved into
// it (||b|| is the residual of the zero guess; it is given to the solver).
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "halo/transport.hpp"
#include "mesh/check.hpp"
#include "mesh/decomposition.hpp"
#include "mesh/field.hpp"
#include "solver/deep_halo.hpp"
#include "solver/poisson3d_config.hpp"

namespace gridflow::solver {

struct ResidualRecord {
  std::int64_t iteration;    ///< sweeps, cycles or CG iterations done
  double relative_residual;  ///< ||f - A u|| / ||b||
  double seconds;            ///< since the solve started
};

struct SolveReport {
  bool converged = false;
  std::int64_t iterations = 0;
  double relative_residual = 0;
  double seconds = 0;
  std::vector<ResidualRecord> history;
  /// Seconds per phase of the solve, where the solver times them (this rank's; empty otherwise).
  std::vector<std::pair<std::string, double>> phases;
};

/// What every solver is built from: the problem, where it runs and how ranks talk.
struct PoissonContext {
  const PoissonConfig& config;
  const mesh::Decomposition<3>& decomposition;
  mesh::MemorySpace space;
  StreamHandle stream;
  halo::Transport transport;
};

/// One solve in progress, advanced by steps: a Jacobi sweep, a multigrid cycle, a CG iteration;
/// the spectral solve is one step. A caller that owns the loop (the application's run loop) stops
/// between steps to write, report or checkpoint; the solve's own rule says when it is done. Made
/// by PoissonSolver::start; it must not outlive the solver nor the fields it was started on.
template <class T>
class PoissonSolve {
 public:
  virtual ~PoissonSolve() = default;
  /// Takes up to `count` steps, fewer when the solve ends first by its own rule (the residual
  /// under the tolerance at a check, config.max_iterations, a residual no longer finite). Returns
  /// the steps taken. Collective. Where the checks fall does not depend on how the solve is cut
  /// into advance() calls.
  virtual std::int64_t advance(std::int64_t count) = 0;
  virtual bool finished() const = 0;
  /// Steps taken so far.
  virtual std::int64_t step() const = 0;
  /// Steps between residual checks: a check is recorded by the step that reaches each multiple,
  /// and by the last step.
  virtual std::int64_t check_every() const { return 1; }
  /// The checks so far, in order.
  virtual const std::vector<ResidualRecord>& history() const = 0;
  /// The iterate after step() steps, in the solver's memory space (owned box of the
  /// decomposition; its ghosts may be stale; the solver's own ghost width).
  virtual const mesh::Field<T, 3>& iterate() const = 0;
  /// Leaves the last iterate in the u the solve was started on and reports. Call once, after the
  /// last advance(). Collective.
  virtual SolveReport finish() = 0;
  // Checkpoints. A solve's state between two steps is its fields (state_fields: in the solver's
  // memory space; a restart writes their owned boxes back), its scalars (state_scalars), its step
  // and its residual history. A solve started afresh on the same problem and given all of them
  // back (fields first, then restore()) continues bitwise as the saved one would have.

  /// The fields that hold the state, by name.
  virtual std::vector<std::pair<std::string, mesh::Field<T, 3>*>> state_fields() { return {}; }
  virtual std::vector<std::pair<std::string, double>> state_scalars() const { return {}; }
  /// Puts back step, history and scalars, after the state_fields were written. A solver without a
  /// state to save (spectral: one step) accepts step 0 only and throws Error otherwise.
  virtual void restore(std::int64_t step, std::vector<ResidualRecord> history,
                       const std::vector<std::pair<std::string, double>>& scalars) {
    (void)history;
    (void)scalars;
    if (step != 0) throw Error("this solver cannot continue a solve from a checkpoint past step 0");
  }
  /// Tuning choices that a restart on the same ranks and memory space takes over (no re-tuning),
  /// by name; apply_tuning_choice puts them back. Empty for solvers that tune nothing.
  virtual std::vector<std::pair<std::string, std::int64_t>> tuning_choice() const { return {}; }
  virtual void apply_tuning_choice(const std::vector<std::pair<std::string, std::int64_t>>& choice) { (void)choice; }

  /// Deep-halo solvers: the ghost width their tuning chose and the one their exchanges used since
  /// (what a run reports as the width that ran); nullopt for the others.
  virtual std::optional<GhostWidthUse> ghost_width_use() const { return std::nullopt; }
};

template <class T>
class PoissonSolver {
 public:
  virtual ~PoissonSolver() = default;
  /// Starts solving from u: its boundary points hold the Dirichlet values, its interior the initial
  /// guess. `b_norm` = ||b||_2 over the whole grid (> 0). `progress` (may be empty) hears of every
  /// residual check as it is made. Collective; may take steps (an on-line tuning's).
  virtual std::unique_ptr<PoissonSolve<T>> start(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, double b_norm,
                                                 std::function<void(const ResidualRecord&)> progress) = 0;
  /// start(), steps until the solve ends, finish(). Collective.
  SolveReport solve(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, double b_norm,
                    const std::function<void(const ResidualRecord&)>& progress) {
    const auto solve = start(u, f, b_norm, progress);
    solve->advance(std::numeric_limits<std::int64_t>::max());
    return solve->finish();
  }
  virtual std::string name() const = 0;
};

/// The solver the config names.
template <class T>
std::unique_ptr<PoissonSolver<T>> make_poisson_solver(const PoissonContext& context);

}  // namespace gridflow::solver
