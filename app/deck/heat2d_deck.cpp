#include "app/deck/heat2d_deck.hpp"

#include <cmath>
#include <sstream>

#include "mesh/check.hpp"
#include "app/deck/expression.hpp"
#include "app/deck/run_options_deck.hpp"

namespace gridflow::app {

using solver::HeatConfig;

namespace {
const auto str = exact_decimal;
// Steps beyond 2^53 cannot be counted in the double time t = k dt, and would take years anyway.
constexpr std::int64_t max_steps = std::int64_t(1) << 53;
}  // namespace

solver::HeatConfig read_heat_config(Deck& deck) {
  solver::HeatConfig c;
  c.run = read_run_options(deck, 2);

  const auto n = deck.integers("grid.n", 2, std::vector<std::int64_t>{256, 256});
  for (int d = 0; d < 2; ++d) {
    if (n[d] < 2) throw InputError("key 'grid.n': " + std::to_string(n[d]) + " intervals along axis " + std::to_string(d) +
                                   "; need at least 2 (points 0..n, boundary included)");
    if (n[d] > (std::int64_t(1) << 30)) throw InputError("key 'grid.n': " + std::to_string(n[d]) + " intervals is too large");
    c.grid.n[d] = n[d];
  }
  const auto length = deck.numbers("grid.length", 2, std::vector<double>{1.0, 1.0});
  const auto origin = deck.numbers("grid.origin", 2, std::vector<double>{0.0, 0.0});
  for (int d = 0; d < 2; ++d) {
    if (!(length[d] > 0) || !std::isfinite(length[d]))
      throw InputError("key 'grid.length': " + str(length[d]) + " must be a positive length");
    if (!std::isfinite(origin[d])) throw InputError("key 'grid.origin': " + str(origin[d]) + " must be a finite coordinate");
    c.grid.length[d] = length[d];
    c.grid.origin[d] = origin[d];
  }

  c.a = deck.number("heat.a", 1.0);
  if (!(c.a > 0) || !std::isfinite(c.a)) throw InputError("key 'heat.a': the diffusivity must be positive, got " + str(c.a));
  c.dt_stable = solver::heat_stable_dt(c.a, c.grid.spacing(0), c.grid.spacing(1));
  if (!(c.dt_stable > 0) || !std::isfinite(c.dt_stable))
    throw InputError("keys 'heat.a', 'grid.length' and 'grid.n': the stable time step 0.5 / (a (1/dx^2 + 1/dy^2)) is " +
                     str(c.dt_stable) + " for a = " + str(c.a) + ", dx = " + str(c.grid.spacing(0)) + ", dy = " +
                     str(c.grid.spacing(1)) + "; it must be a positive finite number");
  const double safety = deck.number("heat.safety", 0.9);
  if (!(safety > 0 && safety <= 1)) throw InputError("key 'heat.safety': " + str(safety) + " is not in (0, 1]");

  const auto t_end = deck.optional_number("heat.t_end");
  const auto steps = deck.optional_integer("heat.steps");
  const auto dt = deck.optional_number("heat.dt");
  if (t_end && steps) throw InputError("keys 'heat.t_end' and 'heat.steps': give one of them, not both");
  if (!t_end && !steps) throw InputError("key 'heat.t_end' (or 'heat.steps') is required");
  if (t_end && !(*t_end > 0 && std::isfinite(*t_end))) throw InputError("key 'heat.t_end': must be positive, got " + str(*t_end));
  if (steps && *steps < 0) throw InputError("key 'heat.steps': must be >= 0, got " + std::to_string(*steps));
  if (steps && *steps > max_steps)
    throw InputError("key 'heat.steps': " + std::to_string(*steps) + " is more than 2^53 = " + std::to_string(max_steps) +
                     " steps (the run's time t = k dt is exact only below that)");
  if (dt) {
    if (!(*dt > 0) || !std::isfinite(*dt)) throw InputError("key 'heat.dt': must be positive, got " + str(*dt));
    // A dt written equal to the bound in decimal must pass: allow the bound's last-bit rounding.
    if (*dt > c.dt_stable * (1 + 1e-12))
      throw InputError("key 'heat.dt': " + str(*dt) + " exceeds the stability bound a dt (1/dx^2 + 1/dy^2) <= 1/2, dt <= " +
                       str(c.dt_stable) + " for this grid and diffusivity");
    c.dt = *dt;
    if (steps) {
      c.steps = *steps;
    } else {
      const double k = std::round(*t_end / *dt);
      if (!(k <= double(max_steps)))
        throw InputError("keys 'heat.t_end' and 'heat.dt': t_end / dt = " + str(*t_end / *dt) + " steps is more than 2^53 = " +
                         std::to_string(max_steps));
      if (k < 1 || std::abs(k * *dt - *t_end) > 1e-9 * *t_end)
        throw InputError("keys 'heat.t_end' and 'heat.dt': t_end = " + str(*t_end) + " is not a whole number of steps of dt = " + str(*dt));
      c.steps = static_cast<std::int64_t>(k);
    }
  } else if (steps) {
    c.dt = safety * c.dt_stable;
    c.steps = *steps;
    deck.number("heat.dt", c.dt);  // record the dt chosen, so the output reproduces the run
  } else {
    const double k = std::ceil(*t_end / (safety * c.dt_stable));
    if (!(k <= double(max_steps)))
      throw InputError("keys 'heat.t_end' and 'heat.a': t_end = " + str(*t_end) + " needs " + str(k) +
                       " steps of the stable dt = " + str(safety * c.dt_stable) + " (heat.safety times the bound for this "
                       "grid and diffusivity), more than 2^53 = " + std::to_string(max_steps));
    c.steps = static_cast<std::int64_t>(k);
    c.dt = *t_end / static_cast<double>(c.steps);
    deck.number("heat.dt", c.dt);
  }

  // Compiled now, so a bad formula is reported before anything runs or is written.
  const std::map<std::string, double> constants{{"a", c.a}};
  c.initial = std::make_shared<Expression>("heat.initial", deck.expression("heat.initial", "0"),
                                           std::vector<std::string>{"x", "y"}, constants);
  const char* sides[] = {"left", "right", "bottom", "top"};
  for (int s = 0; s < 4; ++s) {
    const std::string key = std::string("heat.boundary.") + sides[s];
    c.boundary[s] = std::make_shared<Expression>(key, deck.expression(key, "0"), std::vector<std::string>{"x", "y", "t"}, constants);
  }
  return c;
}

}  // namespace gridflow::app
