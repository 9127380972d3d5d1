#pragma once
// Helpers for tests that run the heat solver in-process: a config from deck text, and a run on
// any communicator with the solution gathered as global (i, j) -> value.
#include <mpi.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gather_test_support.hpp"
#include "app/deck/heat2d_deck.hpp"
#include "solver/heat2d_config.hpp"
#include "solver/heat_solver.hpp"

namespace gridflow::testing {

inline solver::HeatConfig heat_config(const std::string& deck_text, const std::vector<std::string>& overrides = {}) {
  auto deck = app::Deck::parse("problem = 'heat2d'\n" + deck_text, "test deck");
  for (const auto& o : overrides) deck.apply_override(o);
  auto config = app::read_heat_config(deck);
  deck.require_all_used();
  return config;
}

/// Runs `config` over `comm` in `space` (the CUDA kernels with `cuda`, `fused_steps` per launch,
/// for device fields) and returns the whole final field (points 0..n) on every rank, row-major
/// (j * (n0 + 1) + i).
template <class T>
std::vector<T> run_heat_gathered(const solver::HeatConfig& config, MPI_Comm comm,
                                 mesh::MemorySpace space = mesh::MemorySpace::host,
                                 halo::Transport transport = halo::Transport::mpi,
                                 const kernels::stencil::HeatCudaParams& cuda = {}, int fused_steps = 1) {
  const mesh::Decomposition<2> decomposition(config.grid, comm,
                                             {config.run.decomposition[0], config.run.decomposition[1]},
                                             config.run.halo_width);
  std::optional<mesh::Stream> stream;
  if (space == mesh::MemorySpace::device) stream.emplace();
  solver::HeatSolver<T> solver(config, decomposition, space, stream ? stream->get() : nullptr, transport, cuda);
  auto tunables = solver.tunables();
  tunables.fused_steps = fused_steps;
  solver.set_tunables(tunables);
  solver.advance(config.steps);
  return gather_owned(solver.solution(), decomposition.owned(), config.grid.points(), comm, stream ? stream->get() : nullptr);
}

/// The points of `box` where two host fields differ.
template <class T>
std::size_t points_differing(const mesh::Field<T, 2>& a, const mesh::Field<T, 2>& b, const mesh::Box<2>& box) {
  std::size_t differ = 0;
  for_each_point(box, [&](const auto& p) { differ += a(p[0], p[1]) != b(p[0], p[1]); });
  return differ;
}

/// The points of `owned` (this rank's) where the two solvers' solutions differ, after the work
/// queued on `stream` (nullptr for host fields) has finished.
template <class T>
std::size_t owned_points_differing(const solver::HeatSolver<T>& a, const solver::HeatSolver<T>& b,
                                   const mesh::Box<2>& owned, StreamHandle stream) {
  mesh::Field<T, 2> x(owned, a.ghost_capacity(), mesh::MemorySpace::host);
  mesh::Field<T, 2> y(owned, b.ghost_capacity(), mesh::MemorySpace::host);
  if (stream) mesh::synchronize(stream);
  x.copy_from(a.solution());
  y.copy_from(b.solution());
  return points_differing(x, y, owned);
}

}  // namespace gridflow::testing
