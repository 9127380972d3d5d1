#include "app/deck/poisson3d_deck.hpp"

#include <cmath>
#include <sstream>

#include "mesh/check.hpp"
#include "app/deck/expression.hpp"
#include "app/deck/run_options_deck.hpp"

namespace gridflow::app {

using solver::PoissonConfig;

namespace {
const auto str = exact_decimal;
const char* face_keys[6] = {"x_low", "x_high", "y_low", "y_high", "z_low", "z_high"};
}  // namespace

solver::PoissonConfig read_poisson_config(Deck& deck) {
  solver::PoissonConfig c;
  c.run = read_run_options(deck, 3);
  c.solver = deck.string("solver", "multigrid", {"jacobi", "multigrid", "spectral", "cg-mg"});

  const auto n = deck.integers("grid.n", 3, std::vector<std::int64_t>{64, 64, 64});
  const auto length = deck.numbers("grid.length", 3, std::vector<double>{1.0, 1.0, 1.0});
  const auto origin = deck.numbers("grid.origin", 3, std::vector<double>{0.0, 0.0, 0.0});
  for (int d = 0; d < 3; ++d) {
    if (n[d] < 2 || n[d] > (std::int64_t(1) << 20))
      throw InputError("key 'grid.n': " + std::to_string(n[d]) + " intervals along axis " + std::to_string(d) +
                       "; need 2 to 2^20 (points 0..n, boundary included)");
    if (!(length[d] > 0) || !std::isfinite(length[d])) throw InputError("key 'grid.length': " + str(length[d]) + " must be a positive length");
    if (!std::isfinite(origin[d])) throw InputError("key 'grid.origin': " + str(origin[d]) + " must be a finite coordinate");
    c.grid.n[d] = n[d];
    c.grid.length[d] = length[d];
    c.grid.origin[d] = origin[d];
  }

  // Compiled now, so a bad formula is reported before anything runs. The faces take t as every
  // Dirichlet boundary does (always 0 here), after a check that the formula does not use it.
  const std::vector<std::string> xyz{"x", "y", "z"}, xyzt{"x", "y", "z", "t"};
  c.rhs = std::make_shared<Expression>("poisson.rhs", deck.expression("poisson.rhs", "0"), xyz);
  for (int f = 0; f < 6; ++f) {
    const std::string key = std::string("poisson.boundary.") + face_keys[f];
    const std::string text = deck.expression(key, "0");
    Expression(key, text, xyz);
    c.boundary[f] = std::make_shared<Expression>(key, text, xyzt);
  }
  const std::string exact = deck.expression("poisson.exact", "");
  if (!exact.empty()) c.exact = std::make_shared<Expression>("poisson.exact", exact, xyz);
  // Stored in float, u carries a residual floor near eps * 4 n^2 / (14 pi^2) (about 2e-4 at 256^3):
  // the float default asks for what float can deliver on moderate grids.
  c.tolerance = deck.number("poisson.tolerance", c.run.precision == kernels::core::Precision::float32 ? 1e-5 : 1e-8);
  if (!(c.tolerance > 0) || !(c.tolerance < 1))
    throw InputError("key 'poisson.tolerance': " + str(c.tolerance) + " must lie in (0, 1) (a relative residual)");
  const std::int64_t default_iterations = c.solver == "jacobi" ? 1000000 : c.solver == "spectral" ? 1 : 100;
  c.max_iterations = deck.integer("poisson.max_iterations", default_iterations);
  if (c.max_iterations < 1) throw InputError("key 'poisson.max_iterations': must be >= 1");
  c.check_every = deck.integer("poisson.check_every", 10);
  if (c.check_every < 1) throw InputError("key 'poisson.check_every': must be >= 1");

  auto& mg = c.multigrid;
  mg.cycle = deck.string("multigrid.cycle", "V", {"V", "F"});
  mg.smoother = deck.string("multigrid.smoother", "rbgs", {"jacobi", "rbgs"});
  // Sweeps per level: a thousand is far past any use, and keeps the narrowing to int exact.
  mg.pre_smooth = static_cast<int>(deck.integer("multigrid.pre_smooth", 2, {0, 1000}));
  mg.post_smooth = static_cast<int>(deck.integer("multigrid.post_smooth", 2, {0, 1000}));
  if (mg.pre_smooth < 0 || mg.post_smooth < 0 || mg.pre_smooth + mg.post_smooth < 1)
    throw InputError("keys 'multigrid.pre_smooth' and 'multigrid.post_smooth': need >= 0 each and at least one sweep");
  mg.symmetric_cycle = deck.boolean("multigrid.symmetric_cycle", false);
  mg.jacobi_weight = deck.number("multigrid.jacobi_weight", 6.0 / 7.0);
  if (!(mg.jacobi_weight > 0 && mg.jacobi_weight <= 1)) throw InputError("key 'multigrid.jacobi_weight': must lie in (0, 1]");
  mg.coarse_points = deck.integer("multigrid.coarse_points", 4, {2, std::int64_t(1) << 20});
  if (mg.coarse_points < 2) throw InputError("key 'multigrid.coarse_points': must be >= 2");
  mg.full_multigrid = deck.boolean("multigrid.full_multigrid", true);
  mg.out_of_place_smoother = deck.boolean("multigrid.out_of_place_smoother", true);
  mg.mixed_precision = deck.boolean("multigrid.mixed_precision", true);

  if ((c.solver == "multigrid" || c.solver == "cg-mg") && solver::multigrid_levels(c.grid, mg.coarse_points) < 2)
    throw InputError("key 'grid.n': [" + std::to_string(n[0]) + ", " + std::to_string(n[1]) + ", " + std::to_string(n[2]) +
                     "] cannot be coarsened: multigrid halves the axes of the finest spacing, so at least one of them "
                     "must be even and stay >= multigrid.coarse_points = " + std::to_string(mg.coarse_points) +
                     " after halving (sizes such as 64, 96, 128, 192, 256, 512 work)");
  return c;
}

}  // namespace gridflow::app
