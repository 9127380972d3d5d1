#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "app/deck/heat2d_deck.hpp"
#include "mesh/check.hpp"
#include "solver/heat2d_config.hpp"

using gridflow::app::Deck;
using gridflow::app::read_heat_config;

namespace {
Deck deck(const std::string& heat_keys, const std::string& extra = "") {
  return Deck::parse("problem = 'heat2d'\n" + extra + "[grid]\nn = [10, 20]\nlength = [1.0, 2.0]\n[heat]\na = 0.5\n" + heat_keys,
                     "t.toml");
}
std::string exact(double v) {
  std::ostringstream os;
  os.precision(17);
  os << v;
  return os.str();
}
}  // namespace

TEST(HeatConfig, DefaultDtIsSafetyTimesBoundAndHitsTEnd) {
  auto d = deck("t_end = 0.1\n");
  const auto c = read_heat_config(d);
  const double bound = 0.5 / (0.5 * (100.0 + 100.0));  // dx = 0.1, dy = 0.1
  EXPECT_DOUBLE_EQ(c.dt_stable, bound);
  EXPECT_LE(c.dt, 0.9 * bound);
  EXPECT_NEAR(static_cast<double>(c.steps) * c.dt, 0.1, 1e-15);
  EXPECT_EQ(c.steps, static_cast<std::int64_t>(std::ceil(0.1 / (0.9 * bound))));
  EXPECT_NO_THROW(d.require_all_used());
}

TEST(HeatConfig, DtEqualToTheBoundIsAcceptedAndAboveIsRefused) {
  const double bound = gridflow::solver::heat_stable_dt(0.5, 0.1, 0.1);
  auto equal = deck("steps = 10\ndt = " + exact(bound) + "\n");
  EXPECT_EQ(read_heat_config(equal).dt, bound);
  auto above = deck("steps = 10\ndt = " + exact(bound * 1.001) + "\n");
  try {
    read_heat_config(above);
    FAIL() << "an unstable dt must be refused";
  } catch (const gridflow::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("key 'heat.dt'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("stability"), std::string::npos) << e.what();
  }
}

TEST(HeatConfig, TimeKeysMustBeConsistent) {
  auto both = deck("steps = 10\nt_end = 1.0\n");
  EXPECT_THROW(read_heat_config(both), gridflow::InputError);
  auto none = deck("");
  EXPECT_THROW(read_heat_config(none), gridflow::InputError);
  auto not_multiple = deck("t_end = 0.01\ndt = 0.003\n");
  EXPECT_THROW(read_heat_config(not_multiple), gridflow::InputError);
  auto multiple = deck("t_end = 0.01\ndt = 0.001\n");
  EXPECT_EQ(read_heat_config(multiple).steps, 10);
}

TEST(HeatConfig, BadValuesNameTheirKeys) {
  auto zero_size = Deck::parse("problem = 'heat2d'\n[grid]\nn = [0, 10]\n[heat]\nsteps = 1\n", "t.toml");
  EXPECT_THROW(read_heat_config(zero_size), gridflow::InputError);
  auto negative_a = deck("steps = 1\n", "");
  negative_a.apply_override("heat.a=-1");
  EXPECT_THROW(read_heat_config(negative_a), gridflow::InputError);
  auto bad_expression = deck("steps = 1\ninitial = 'x + q'\n");
  EXPECT_THROW(read_heat_config(bad_expression), gridflow::InputError);
  auto bad_device = deck("steps = 1\n", "device = 'tpu'\n");
  EXPECT_THROW(read_heat_config(bad_device), gridflow::InputError);
}
