#pragma once
// Everything a 2D heat run needs, as checked values: sizes, time step, the initial and boundary
// functions, the shared run options. The application fills it from the deck and validates it there.
#include <array>
#include <cstdint>

#include "mesh/box.hpp"
#include "mesh/grid.hpp"
#include "mesh/memory_space.hpp"
#include "solver/coordinate_function.hpp"
#include "solver/memory_need.hpp"
#include "solver/run_options.hpp"

namespace gridflow::solver {

struct HeatConfig {
  RunOptions run;
  mesh::Grid<2> grid;
  double a = 1;            ///< diffusivity
  double dt = 0;           ///< time step used
  double dt_stable = 0;    ///< the stability bound 1 / (2 a (1/dx^2 + 1/dy^2))
  std::int64_t steps = 0;  ///< steps to take; the run ends at t = steps * dt
  SharedFunction initial;  ///< f(x, y)
  std::array<SharedFunction, 4> boundary;  ///< left (x=x0), right, bottom (y=y0), top: each of (x, y, t)
};

/// Largest stable dt of the explicit scheme.
double heat_stable_dt(double a, double dx, double dy);

/// What one rank of a heat run owning `owned`, with fields of `ghost_capacity` ghost layers in
/// `space`, allocates: u and u_next with their exchange buffers; on the host path the initial
/// state's set-up field beside them; on the device path that field, later the output's host copy.
MemoryNeed heat_memory_need(const HeatConfig& config, const mesh::Box<2>& owned, int ghost_capacity, mesh::MemorySpace space);

}  // namespace gridflow::solver
