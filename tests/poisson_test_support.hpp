#pragma once
// Helpers for tests that run Poisson solvers in-process: a config from deck text, a solve on any
// communicator with the solution gathered on every rank, and the max error against a formula.
#include <mpi.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "gather_test_support.hpp"
#include "app/deck/poisson3d_deck.hpp"
#include "solver/poisson3d_config.hpp"
#include "solver/poisson_problem.hpp"
#include "solver/poisson_solver.hpp"

namespace gridflow::testing {

inline solver::PoissonConfig poisson_config(const std::string& deck_text, const std::vector<std::string>& overrides = {}) {
  auto deck = app::Deck::parse("problem = 'poisson3d'\n" + deck_text, "test deck");
  for (const auto& o : overrides) deck.apply_override(o);
  auto config = app::read_poisson_config(deck);
  deck.require_all_used();
  return config;
}

template <class T>
struct PoissonResult {
  std::vector<T> u;  ///< every grid point, x fastest
  solver::SolveReport report;
};

/// Solves `config` over `comm` with the solver make(context) returns (a unique_ptr to a
/// PoissonSolver<T>), on fields with `ghost_layers` ghost layers (0: halo.width), and gathers u
/// on every rank.
template <class T, class MakeSolver>
PoissonResult<T> solve_gathered_with(const solver::PoissonConfig& config, MPI_Comm comm, mesh::MemorySpace space,
                                     halo::Transport transport, MakeSolver&& make, int ghost_layers = 0) {
  const mesh::Decomposition<3> d(config.grid, comm,
                                 {config.run.decomposition[0], config.run.decomposition[1], config.run.decomposition[2]},
                                 config.run.halo_width);
  std::optional<mesh::Stream> stream;
  if (space == mesh::MemorySpace::device) stream.emplace();
  const StreamHandle s = stream ? stream->get() : nullptr;
  solver::PoissonProblem<T> problem(config, d, space, s, ghost_layers > 0 ? ghost_layers : config.run.halo_width);
  const solver::PoissonContext context{config, d, space, s, transport};
  auto solver = make(context);
  PoissonResult<T> result;
  result.report = solver->solve(problem.u(), problem.f(), problem.b_norm(), {});
  result.u = gather_owned(problem.u(), d.owned(), config.grid.points(), comm, s);
  return result;
}

/// The same with the solver the config names (the factory).
template <class T>
PoissonResult<T> solve_gathered(const solver::PoissonConfig& config, MPI_Comm comm,
                                mesh::MemorySpace space = mesh::MemorySpace::host,
                                halo::Transport transport = halo::Transport::mpi) {
  return solve_gathered_with<T>(config, comm, space, transport,
                                [](const solver::PoissonContext& c) { return solver::make_poisson_solver<T>(c); });
}

/// Max over the grid points of |u - exact(x, y, z)|.
template <class T>
double max_error(const std::vector<T>& u, const mesh::Grid<3>& g, const std::function<double(double, double, double)>& exact) {
  double err = 0;
  std::size_t q = 0;
  for (mesh::Index k = 0; k <= g.n[2]; ++k)
    for (mesh::Index j = 0; j <= g.n[1]; ++j)
      for (mesh::Index i = 0; i <= g.n[0]; ++i, ++q)
        err = std::max(err, std::abs(static_cast<double>(u[q]) - exact(g.coordinate(0, i), g.coordinate(1, j), g.coordinate(2, k))));
  return err;
}

}  // namespace gridflow::testing
