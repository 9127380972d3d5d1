#pragma once
// Everything a 2D heat run needs, read from the deck and checked: sizes, time step, expressions,
// output, halo. Values are validated here, with the deck key in every message.
#include <array>
#include <cstdint>
#include <string>

#include "mesh/grid.hpp"
#include "solver/deck.hpp"
#include "solver/run_options.hpp"

namespace gridflow::solver {

struct HeatConfig {
  RunOptions run;
  mesh::Grid<2> grid;
  double a = 1;            ///< diffusivity
  double dt = 0;           ///< time step used
  double dt_stable = 0;    ///< the stability bound 1 / (2 a (1/dx^2 + 1/dy^2))
  std::int64_t steps = 0;  ///< steps to take; the run ends at t = steps * dt
  std::string initial;     ///< f(x, y)
  std::array<std::string, 4> boundary;  ///< left (x=x0) and right: of (y, t); bottom (y=y0) and top: of (x, t)
};

/// Largest stable dt of the explicit scheme.
double heat_stable_dt(double a, double dx, double dy);

/// Reads [grid] and [heat]; throws InputError for a missing, mistyped or impossible value.
HeatConfig read_heat_config(Deck& deck);

}  // namespace gridflow::solver
