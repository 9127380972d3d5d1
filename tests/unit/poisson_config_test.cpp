#include <gtest/gtest.h>

#include "mesh/check.hpp"
#include "poisson_test_support.hpp"

using gridflow::testing::poisson_config;

namespace {
std::string message_of(const std::string& deck, const std::vector<std::string>& overrides = {}) {
  try {
    poisson_config(deck, overrides);
  } catch (const gridflow::InputError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(PoissonConfig, DefaultsAndLevels) {
  const auto c = poisson_config("[grid]\nn = [64, 32, 48]\n");
  EXPECT_EQ(c.solver, "multigrid");
  // Spacings 1/64, 1/32, 1/48 on the unit cube: x and z (within 1.5 of the finest) halve first.
  EXPECT_EQ(gridflow::solver::multigrid_levels(c.grid, 4), 5);  // 64,32,48 -> 32,32,24 -> 16,16,12 -> 8,8,6 -> 4,4,6
  EXPECT_EQ(c.max_iterations, 100);
  EXPECT_EQ(poisson_config("solver = 'jacobi'\n").max_iterations, 1000000);
}

TEST(PoissonConfig, BadInputNamesKeyAndReason) {
  EXPECT_NE(message_of("[poisson]\ntolerance = 0\n").find("key 'poisson.tolerance'"), std::string::npos);
  EXPECT_NE(message_of("[poisson]\ntolerance = -1e-3\n").find("key 'poisson.tolerance'"), std::string::npos);
  const auto coarsen = message_of("[grid]\nn = [63, 63, 63]\n");
  EXPECT_NE(coarsen.find("cannot be coarsened"), std::string::npos) << coarsen;
  EXPECT_NE(coarsen.find("64, 96, 128"), std::string::npos) << coarsen;  // says what sizes work
  EXPECT_EQ(message_of("solver = 'jacobi'\n[grid]\nn = [63, 64, 64]\n"), "");  // jacobi takes any size
  const auto variable = message_of("[poisson]\nrhs = 'x + w'\n");
  EXPECT_NE(variable.find("key 'poisson.rhs'"), std::string::npos) << variable;
  EXPECT_NE(variable.find("'w'"), std::string::npos) << variable;
  EXPECT_NE(message_of("[poisson.boundary]\nx_low = 't'\n").find("key 'poisson.boundary.x_low'"), std::string::npos);
  EXPECT_NE(message_of("solver = 'sor'\n").find("key 'solver'"), std::string::npos);
}
