#include "solver/heat2d_config.hpp"

namespace gridflow::solver {

double heat_stable_dt(double a, double dx, double dy) { return 0.5 / (a * (1.0 / (dx * dx) + 1.0 / (dy * dy))); }

}  // namespace gridflow::solver
