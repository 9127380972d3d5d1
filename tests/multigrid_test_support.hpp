#pragma once
// Helpers for tests of the multigrid solvers, built directly with their options: a solve over any
// communicator with the solution gathered on every rank, and the manufactured problems the tests
// share.
#include <mpi.h>

#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kernels/multigrid/mixed_precision.hpp"
#include "kernels/stencil/jacobi.hpp"
#include "poisson_test_support.hpp"
#include "solver/conjugate_gradient.hpp"
#include "solver/multigrid_solve_fields.hpp"
#include "solver/multigrid_solver.hpp"

namespace gridflow::testing {

/// Solves `config` over `comm` with a `Solver` (a PoissonSolver built from a PoissonContext) and
/// gathers u on every rank.
template <class Solver, class T>
PoissonResult<T> solve_with(const solver::PoissonConfig& config, MPI_Comm comm, mesh::MemorySpace space = mesh::MemorySpace::host,
                            halo::Transport transport = halo::Transport::mpi) {
  return solve_gathered_with<T>(config, comm, space, transport,
                                [](const solver::PoissonContext& c) { return std::make_unique<Solver>(c); });
}

namespace detail {
struct ConfigCopy {
  solver::PoissonConfig config;
};
}  // namespace detail

/// `Solver` (a multigrid-based PoissonSolver) with its cycles in the run's precision
/// (multigrid.mixed_precision = false), whatever the config says: a typed test runs the same
/// body over both the mixed-precision default and the double cycles.
template <class Solver>
class DoubleCycles : private detail::ConfigCopy, public Solver {
 public:
  explicit DoubleCycles(const solver::PoissonContext& c)
      : detail::ConfigCopy{without_mixed(c.config)},
        Solver(solver::PoissonContext{ConfigCopy::config, c.decomposition, c.space, c.stream, c.transport}) {}

 private:
  static solver::PoissonConfig without_mixed(solver::PoissonConfig config) {
    config.multigrid.mixed_precision = false;
    return config;
  }
};

/// The gathered u and the relative residual after each iteration of a solve.
struct IterateHistory {
  std::vector<double> u, residuals;
};

/// Conjugate gradients preconditioned by mixed-precision multigrid (`config` must ask for it) on
/// one rank: through RoundedPreconditioner (`rounded`: CG rounds r and reads the float z), or
/// through a Preconditioner that rounds r, cycles and widens z in passes of their own.
inline IterateHistory cg_with_float_multigrid(const solver::PoissonConfig& config, mesh::MemorySpace space, bool rounded) {
  const mesh::Decomposition<3> d(config.grid, MPI_COMM_SELF, {1, 1, 1}, config.run.halo_width);
  std::optional<mesh::Stream> stream;
  if (space == mesh::MemorySpace::device) stream.emplace();
  const StreamHandle s = stream ? stream->get() : nullptr;
  solver::PoissonProblem<double> problem(config, d, space, s, config.run.halo_width);
  const solver::PoissonContext context{config, d, space, s, halo::Transport::mpi};
  solver::MultigridSolver<double> multigrid(context);
  GRIDFLOW_REQUIRE(multigrid.mixed(), "cg_with_float_multigrid: the config must ask for mixed precision");
  solver::ConjugateGradient<double> cg(d, multigrid.hierarchy().plan(0).ghost, space,
                                       kernels::stencil::poisson_coefficients<double>(config.grid.spacing(0), config.grid.spacing(1),
                                                                                      config.grid.spacing(2)),
                                       halo::Transport::mpi, s);
  const solver::MultigridSolveFields<double> fields(multigrid, context, problem.u(), problem.f(), "cg");
  const solver::ConjugateGradient<double>::Options options{config.tolerance, config.max_iterations, problem.b_norm()};
  IterateHistory got;
  auto record = [&got](std::int64_t, double relative) { got.residuals.push_back(relative); };
  if (rounded) {
    solver::ConjugateGradient<double>::RoundedPreconditioner m;
    m.r = &multigrid.rounded_residual();
    m.z = &multigrid.rounded_correction();
    m.apply = [&] { multigrid.precondition_rounded(); };
    cg.start(fields.u(), fields.f(), options, std::move(m), record);
  } else {
    cg.start(fields.u(), fields.f(), options,
             [&](const mesh::Field<double, 3>& r, mesh::Field<double, 3>& z) { multigrid.precondition(r, z); },
             record);
  }
  while (cg.iterate()) {
  }
  got.residuals.push_back(cg.finish().relative_residual);
  fields.finish();
  got.u = gather_owned(problem.u(), d.owned(), config.grid.points(), MPI_COMM_SELF, s);
  return got;
}

/// u = sin(pi x) sin(2 pi y) sin(3 pi z) on the unit cube: zero on the faces, f = -14 pi^2 u.
inline std::string sine_deck(int n) {
  const std::string size = std::to_string(n);
  return "[grid]\nn = [" + size + ", " + size + ", " + size + "]\n[poisson]\n"
         "rhs = '-14 * pi^2 * sin(pi*x) * sin(2*pi*y) * sin(3*pi*z)'\n";
}
inline double sine_solution(double x, double y, double z) {
  return std::sin(M_PI * x) * std::sin(2 * M_PI * y) * std::sin(3 * M_PI * z);
}

/// u = x^2 + y z on [0,1] x [0,0.75] x [0,1.25] (non-zero faces; the 7-point operator is exact
/// for it, so the discrete solution is u itself): f = 2.
inline std::string quadratic_deck(const std::array<int, 3>& n) {
  std::string faces;
  for (const char* face : {"x_low", "x_high", "y_low", "y_high", "z_low", "z_high"}) faces += std::string(face) + " = 'x^2 + y*z'\n";
  return "[grid]\nn = [" + std::to_string(n[0]) + ", " + std::to_string(n[1]) + ", " + std::to_string(n[2]) +
         "]\nlength = [1.0, 0.75, 1.25]\n[poisson]\nrhs = '2'\n[poisson.boundary]\n" + faces;
}
inline double quadratic_solution(double x, double y, double z) { return x * x + y * z; }

}  // namespace gridflow::testing
