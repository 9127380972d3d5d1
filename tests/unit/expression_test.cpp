#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "mesh/check.hpp"
#include "solver/expression.hpp"

using gridflow::solver::Expression;

TEST(Expression, EvaluatesWithVariablesAndConstants) {
  const Expression e("heat.initial", "sin(pi*x) * y^2 + a", {"x", "y"}, {{"a", 0.25}});
  EXPECT_NEAR(e.eval(0.5, 3.0), 9.25, 1e-14);
  EXPECT_TRUE(e.uses("x"));
  EXPECT_FALSE(e.uses("t"));
  EXPECT_TRUE(Expression("k", "x + t", {"x", "y", "t"}).uses("t"));
}

// muParser's bulk and scalar paths may round differently; what the solver relies on is that a
// point's bulk value does not depend on the batch it is evaluated in (ranks batch differently).
TEST(Expression, BulkValueIsIndependentOfTheBatch) {
  const Expression e("k", "exp(-x) * cos(3*y) + x*y", {"x", "y"});
  std::vector<double> x(1000), y(1000), out(1000), part(1000);
  for (int i = 0; i < 1000; ++i) {
    x[i] = 0.001 * i;
    y[i] = 1.0 - 0.002 * i;
  }
  e.eval_bulk(1000, {x.data(), y.data()}, out.data());
  for (int first : {0, 1, 17, 500, 999}) {
    const int n = std::min(37, 1000 - first);
    e.eval_bulk(n, {x.data() + first, y.data() + first}, part.data());
    for (int i = 0; i < n; ++i) ASSERT_EQ(part[i], out[first + i]) << first + i;
  }
  for (int i = 0; i < 1000; ++i) ASSERT_NEAR(out[i], e.eval(x[i], y[i]), 1e-15 * (1 + std::abs(out[i]))) << i;
  EXPECT_NEAR(e.eval(0.3, 0.4), std::exp(-0.3) * std::cos(1.2) + 0.3 * 0.4, 1e-15);  // scalars bound again after bulk
}

TEST(Expression, UnknownVariableNamesKeyAndAllowedNames) {
  try {
    Expression("heat.boundary.left", "sin(z) + t", {"x", "y", "t"});
    FAIL() << "an unknown variable must be rejected";
  } catch (const gridflow::InputError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("key 'heat.boundary.left'"), std::string::npos) << m;
    EXPECT_NE(m.find("'z'"), std::string::npos) << m;
    EXPECT_NE(m.find("x, y, t"), std::string::npos) << m;
  }
  EXPECT_THROW(Expression("k", "sin(x", {"x"}), gridflow::InputError);
}
