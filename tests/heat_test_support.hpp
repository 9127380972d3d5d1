#pragma once
// Helpers for tests that run the heat solver in-process: a config from deck text, and a run on
// any communicator with the solution gathered as global (i, j) -> value.
#include <mpi.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "solver/heat2d_config.hpp"
#include "solver/heat_solver.hpp"

namespace gridflow::testing {

inline solver::HeatConfig heat_config(const std::string& deck_text, const std::vector<std::string>& overrides = {}) {
  auto deck = solver::Deck::parse("problem = 'heat2d'\n" + deck_text, "test deck");
  for (const auto& o : overrides) deck.apply_override(o);
  auto config = solver::read_heat_config(deck);
  deck.require_all_used();
  return config;
}

/// Runs `config` over `comm` on host fields and returns the whole final field (points 0..n) on
/// every rank, row-major (j * (n0 + 1) + i).
template <class T>
std::vector<T> run_heat_gathered(const solver::HeatConfig& config, MPI_Comm comm,
                                 mesh::MemorySpace space = mesh::MemorySpace::host,
                                 halo::Transport transport = halo::Transport::mpi) {
  const mesh::Decomposition<2> decomposition(config.grid, comm,
                                             {config.run.decomposition[0], config.run.decomposition[1]},
                                             config.run.halo_width);
  std::optional<mesh::Stream> stream;
  if (space == mesh::MemorySpace::device) stream.emplace();
  solver::HeatSolver<T> solver(config, decomposition, space, stream ? stream->get() : nullptr, transport);
  solver.advance(config.steps);
  mesh::Field<T, 2> host(decomposition.owned(), config.run.halo_width, mesh::MemorySpace::host);
  if (stream) mesh::synchronize(stream->get());
  host.copy_from(solver.solution());
  const auto points = config.grid.points();
  std::vector<T> local(static_cast<std::size_t>(points.size()), T(0)), global(local.size());
  const auto& o = decomposition.owned();
  for (auto j = o.lo[1]; j <= o.hi[1]; ++j)
    for (auto i = o.lo[0]; i <= o.hi[0]; ++i) local[j * points.extent(0) + i] = host(i, j);
  // Each point is owned once: a sum over ranks assembles the field exactly (others add zero).
  MPI_Allreduce(local.data(), global.data(), static_cast<int>(local.size()),
                sizeof(T) == 4 ? MPI_FLOAT : MPI_DOUBLE, MPI_SUM, comm);
  return global;
}

}  // namespace gridflow::testing
