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
#include <memory>
#include <string>
#include <vector>

#include "halo/transport.hpp"
#include "mesh/decomposition.hpp"
#include "mesh/field.hpp"
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
};

/// What every solver is built from: the problem, where it runs and how ranks talk.
struct PoissonContext {
  const PoissonConfig& config;
  const mesh::Decomposition<3>& decomposition;
  mesh::MemorySpace space;
  StreamHandle stream;
  halo::Transport transport;
};

template <class T>
class PoissonSolver {
 public:
  virtual ~PoissonSolver() = default;
  /// Collective. `b_norm` = ||b||_2 over the whole grid (> 0). Reports as it goes through
  /// `progress` (may be empty) every time it measures the residual.
  virtual SolveReport solve(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, double b_norm,
                            const std::function<void(const ResidualRecord&)>& progress) = 0;
  virtual std::string name() const = 0;
};

/// The solver the config names.
template <class T>
std::unique_ptr<PoissonSolver<T>> make_poisson_solver(const PoissonContext& context);

}  // namespace gridflow::solver
