#pragma once
// Heat runs compared where they stand, rank by rank: two solvers of one run agree when every owned
// point has the same bits, whichever memory space each one's fields are in.
#include <mpi.h>

#include <memory>
#include <string>

#include "box_iteration.hpp"
#include "halo/transport.hpp"
#include "solver/heat_solver.hpp"

namespace gridflow::testing {

/// A heat2d deck (without the problem key) of nx x ny intervals whose boundary values move with t,
/// so that every step rewrites them, from an initial state without symmetry.
inline std::string moving_boundary_deck(int nx, int ny, int steps) {
  return "[grid]\nn = [" + std::to_string(nx) + ", " + std::to_string(ny) + "]\nlength = [1.0, 0.8]\n" +
         "[heat]\na = 0.9\nsteps = " + std::to_string(steps) + "\ninitial = 'sin(5*x) * cos(3*y) + x'\n" +
         "[heat.boundary]\nleft = 'y * cos(40*t)'\nright = '1 + sin(y + 30*t)'\nbottom = 'x * exp(-t)'\ntop = 'x^2'\n";
}

/// Owned points of `a` and `b` (same layout, any memory spaces) whose values differ in any bit,
/// summed over the ranks of `comm`. Collective.
template <class T>
long long differing_points(const mesh::Field<T, 2>& a, const mesh::Field<T, 2>& b, MPI_Comm comm) {
  mesh::Field<T, 2> host_a(a.owned(), a.ghost_width(), mesh::MemorySpace::host);
  mesh::Field<T, 2> host_b(b.owned(), b.ghost_width(), mesh::MemorySpace::host);
  host_a.copy_from(a);
  host_b.copy_from(b);
  long long local = 0, total = 0;
  for_each_point<2>(a.owned(), [&](const auto& p) { local += host_a(p[0], p[1]) != host_b(p[0], p[1]); });
  MPI_Allreduce(&local, &total, 1, MPI_LONG_LONG, MPI_SUM, comm);
  return total;
}

/// A solver of `config` in `space` (fields with `ghost_capacity` ghost layers, the default
/// tunables) that has taken config.steps steps, untuned; its steps have finished.
template <class T>
std::unique_ptr<solver::HeatSolver<T>> untuned_heat_run(const solver::HeatConfig& config,
                                                        const mesh::Decomposition<2>& decomposition,
                                                        mesh::MemorySpace space, StreamHandle stream = nullptr,
                                                        int ghost_capacity = 0) {
  auto run = std::make_unique<solver::HeatSolver<T>>(config, decomposition, space, stream, halo::Transport::mpi,
                                                     kernels::stencil::HeatCudaParams{}, ghost_capacity);
  run->advance(config.steps);
  run->wait();
  return run;
}

}  // namespace gridflow::testing
