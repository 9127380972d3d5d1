#pragma once
// A 3D Poisson run as checked values (the application fills it from the deck): u_xx + u_yy + u_zz = f on a box, Dirichlet
// values on its faces, solved by Jacobi, multigrid, CG preconditioned by multigrid, or the
// spectral (DST-I) direct solver.
#include <array>
#include <cstdint>
#include <string>

#include "mesh/box.hpp"
#include "mesh/grid.hpp"
#include "mesh/memory_space.hpp"
#include "solver/coordinate_function.hpp"
#include "solver/memory_need.hpp"
#include "solver/run_options.hpp"

namespace gridflow::solver {

struct MultigridOptions {
  std::string cycle = "V";         ///< "V" or "F"
  std::string smoother = "rbgs";   ///< "jacobi" (weighted) or "rbgs" (red-black Gauss-Seidel)
  int pre_smooth = 2;
  int post_smooth = 2;
  /// rbgs: after the coarse correction, black then red (the reverse of the pre-smoothing), so that
  /// with equal counts a cycle is a symmetric operator. Off (the default), the post-smoothing also
  /// goes red then black: a cycle then ends on black and the next (its residual zero at black points)
  /// starts on red, where a symmetric cycle's last red half-sweep meets the next one's first, which
  /// changes nothing. 3D V(1,1) then reduces the residual 0.2 a cycle (local Fourier analysis: 0.2)
  /// instead of 0.41. At 513^3 multigrid takes 5 cycles instead of 7; CG-multigrid (flexible CG)
  /// 6 iterations either way.
  bool symmetric_cycle = false;
  double jacobi_weight = 6.0 / 7.0;
  std::int64_t coarse_points = 4;  ///< halve an axis only while it keeps at least this many intervals
  /// Start with a full multigrid pass (FMG) from the coarsest level: the multigrid solver's first
  /// cycle, CG-multigrid's first preconditioning (its first search direction).
  bool full_multigrid = true;
  /// Red-black sweeps on one GPU out of place, both colours in one z-marching kernel (one pass over
  /// memory a sweep instead of two), bitwise equal to the in-place colour sweeps. On an H200 at
  /// 513^3 double: multigrid 57.3-58.2 ms against 60.0-60.4, CG-multigrid 73.3-73.5 against 76.2-76.9.
  bool out_of_place_smoother = true;
  /// Double runs: the cycles compute their correction in float (iterative refinement: residual
  /// and solution stay double and the tolerance is met in double), halving the bytes a cycle
  /// moves. No effect in float runs.
  bool mixed_precision = true;
};

struct PoissonConfig {
  RunOptions run;
  mesh::Grid<3> grid;
  std::string solver = "multigrid";  ///< "jacobi", "multigrid", "spectral" or "cg-mg"
  SharedFunction rhs;                ///< f(x, y, z)
  std::array<SharedFunction, 6> boundary;  ///< x_low, x_high, y_low, y_high, z_low, z_high: of (x, y, z, t)
  SharedFunction exact;              ///< optional exact solution of (x, y, z), to report the error; null if none
  double tolerance = 1e-8;           ///< on ||b - A u|| / ||b||; default 1e-8 in double, 1e-5 in float
  std::int64_t max_iterations = 0;   ///< sweeps (jacobi), cycles (multigrid), iterations (cg-mg)
  std::int64_t check_every = 10;     ///< jacobi: sweeps between residual checks
  MultigridOptions multigrid;
};

/// The multigrid levels the grid allows: how often every axis's interval count halves evenly
/// while staying >= coarse_points. 1 means multigrid cannot coarsen this grid.
int multigrid_levels(const mesh::Grid<3>& grid, std::int64_t coarse_points);

/// What one of `ranks` ranks of a Poisson run owning `owned`, with the run's fields (u, f) of
/// `ghost_capacity` ghost layers in `space`, allocates for config.solver: Jacobi's second iterate;
/// multigrid's finest-level copies, residual (and scratch for its Jacobi smoother) and coarser
/// levels; CG-multigrid's copies, CG vectors and hierarchy; the spectral solver's transform
/// buffers, and on several ranks its slabs and redistribution buffers (`host_staging`: a device
/// run whose transfers go through pinned host memory); set-up temporaries and the output's host copy.
MemoryNeed poisson_memory_need(const PoissonConfig& config, const mesh::Box<3>& owned, int ranks, int ghost_capacity,
                               mesh::MemorySpace space, bool host_staging);

}  // namespace gridflow::solver
