#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "mesh/check.hpp"
#include "app/deck/expression.hpp"
#include "solver/evaluate_on_box.hpp"

using gridflow::app::Expression;

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

// evaluate_on_box visits every point of the box once, with the value the formula has there: a
// formula of the coordinates through the batched bulk path (rows in several batches), a constant
// one evaluated once.
TEST(Expression, EvaluatedOnABoxVisitsEveryPointOnceWithItsValue) {
  gridflow::mesh::Grid<3> grid;
  grid.n = {1200, 60, 40};
  grid.length = {1.0, 2.0, 3.0};
  const gridflow::mesh::Box<3> box{{3, 5, 7}, {1102, 54, 39}};  // 1650 rows of 1100: two batches of <= 2^20 points
  for (const char* text : {"x + 10*y - 100*z", "2.5 * pi"}) {
    const Expression e("poisson.rhs", text, {"x", "y", "z"});
    std::vector<int> visits(static_cast<std::size_t>(box.size()), 0);
    std::size_t wrong = 0;
    gridflow::solver::evaluate_on_box(e, grid, box, [&](const auto& p, double v) {
      const auto k = static_cast<std::size_t>(((p[2] - box.lo[2]) * box.extent(1) + (p[1] - box.lo[1])) * box.extent(0) +
                                              (p[0] - box.lo[0]));
      ++visits[k];
      const double expect = e.eval(grid.coordinate(0, p[0]), grid.coordinate(1, p[1]), grid.coordinate(2, p[2]));
      wrong += std::abs(v - expect) > 1e-12 * (1 + std::abs(expect));
    });
    EXPECT_EQ(wrong, 0u) << text;
    EXPECT_TRUE(std::all_of(visits.begin(), visits.end(), [](int n) { return n == 1; })) << text;
  }
  EXPECT_TRUE(Expression("k", "2.5 * pi", {"x", "y", "z"}).constant());
  EXPECT_FALSE(Expression("k", "2.5 * z", {"x", "y", "z"}).constant());
}
