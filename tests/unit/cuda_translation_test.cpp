// The CUDA form of deck formulas, checked as text: every operator, function and constant, and the
// precedence and associativity cases where a wrong grouping would change the value. Values are
// checked on the device (tests/gpu/evaluate_on_device_gpu_test.cpp), where the text is compiled.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "app/deck/cuda_translation.hpp"
#include "app/deck/expression.hpp"
#include "solver/evaluate_on_device.hpp"

using gridflow::app::cuda_literal;
using gridflow::app::Expression;
using gridflow::app::translate_to_cuda;

namespace {

/// muParser's value of one of its own constants (Debian's _pi is 3.14159265359, not M_PI).
double parser_value(const std::string& constant) { return Expression("test", constant, {}).eval(0, 0, 0, 0); }

std::string cuda(const std::string& formula) {
  Expression("test", formula, {"x", "y", "z", "t"}, {{"a", 0.25}});  // muParser accepts it first
  const auto t = translate_to_cuda(formula, {"x", "y", "z", "t"},
                                   {{"a", 0.25}, {"pi", M_PI}, {"e", M_E}, {"_pi", parser_value("_pi")}, {"_e", parser_value("_e")}});
  return t ? *t : "<none>";
}

}  // namespace

TEST(CudaTranslation, LiteralsAreExactDoubles) {
  EXPECT_EQ(cuda_literal(2.0), "0x1p+1");
  EXPECT_EQ(cuda_literal(-0.75), "(-0x1.8p-1)");
  EXPECT_EQ(cuda_literal(0.0), "0.0");
  EXPECT_EQ(cuda_literal(-0.0), "(-0.0)");
  EXPECT_EQ(cuda_literal(0.1), "0x1.999999999999ap-4");
  EXPECT_EQ(cuda_literal(std::numeric_limits<double>::infinity()), "__longlong_as_double(9218868437227405312LL)");
  EXPECT_EQ(cuda("1.5e3"), "0x1.77p+10");
  EXPECT_EQ(cuda(".5"), "0x1p-1");
}

TEST(CudaTranslation, VariablesAndConstants) {
  EXPECT_EQ(cuda("x + y + z + t"), "(((v0 + v1) + v2) + v3)");
  EXPECT_EQ(cuda("a"), "0x1p-2");
  EXPECT_EQ(cuda("pi"), cuda_literal(M_PI));
  EXPECT_EQ(cuda("_pi"), cuda_literal(parser_value("_pi")));
  EXPECT_EQ(cuda("e"), cuda_literal(M_E));
  EXPECT_EQ(cuda("_e"), cuda_literal(parser_value("_e")));
}

TEST(CudaTranslation, BinaryOperatorsAssociateLeftExceptPower) {
  EXPECT_EQ(cuda("x-y-z"), "((v0 - v1) - v2)");
  EXPECT_EQ(cuda("x/y/z"), "((v0 / v1) / v2)");
  EXPECT_EQ(cuda("x*y/z*t"), "(((v0 * v1) / v2) * v3)");
  EXPECT_EQ(cuda("x+y*z"), "(v0 + (v1 * v2))");
  EXPECT_EQ(cuda("(x+y)*z"), "((v0 + v1) * v2)");
  EXPECT_EQ(cuda("3*(x+1)"), "(0x1.8p+1 * (v0 + 0x1p+0))");  // not x*3+3 (muParser's optimizer is off)
  EXPECT_EQ(cuda("2^3^2"), "pow(0x1p+1, pow(0x1.8p+1, 0x1p+1))");
  EXPECT_EQ(cuda("x^y*z"), "(pow(v0, v1) * v2)");
}

TEST(CudaTranslation, SignsBindLooserThanPower) {
  EXPECT_EQ(cuda("-2^2"), "(-pow(0x1p+1, 0x1p+1))");
  EXPECT_EQ(cuda("2^-x"), "pow(0x1p+1, (-v0))");
  EXPECT_EQ(cuda("2^-x^2"), "pow(0x1p+1, (-pow(v0, 0x1p+1)))");
  EXPECT_EQ(cuda("-x*y"), "((-v0) * v1)");
  EXPECT_EQ(cuda("x*-y"), "(v0 * (-v1))");
  EXPECT_EQ(cuda("-x-y"), "((-v0) - v1)");
  EXPECT_EQ(cuda("+x"), "v0");
  EXPECT_EQ(cuda("-(-x)"), "(-(-v0))");
}

// The groupings above are muParser's: its own values of the same cases (no translation involved).
TEST(CudaTranslation, GroupingsAreMuParsers) {
  auto value = [](const std::string& f) { return Expression("test", f, {"x"}).eval(0.0, 0, 0, 0); };
  EXPECT_EQ(value("-2^2"), -4.0);
  EXPECT_EQ(value("2^3^2"), 512.0);
  EXPECT_EQ(value("2^-1^2"), 0.5);
  EXPECT_EQ(value("8-4-2"), 2.0);
  EXPECT_EQ(value("8/4/2"), 1.0);
  EXPECT_EQ(value("1 || 0 && 0"), 1.0);
  EXPECT_EQ(value("1 < 2 == 1"), 1.0);
  EXPECT_EQ(value("0 ? 2 : 0 ? 3 : 4"), 4.0);
  EXPECT_EQ(value("1 ? 2 : 0 ? 3 : 4"), 2.0);
  EXPECT_EQ(value("log(e)"), 1.0);
  EXPECT_EQ(value("rint(2.5) + rint(-2.5)"), 1.0);  // floor(v + 0.5): 3 and -2
  EXPECT_EQ(value("min(3, 1, 2) + max(3, 1, 2) + sign(-7) + abs(-2) + avg(1, 2) + sum(1, 2)"), 1 + 3 - 1 + 2 + 1.5 + 3);
}

TEST(CudaTranslation, ComparisonsLogicAndTernaries) {
  EXPECT_EQ(cuda("x < y"), "((v0 < v1) ? 1.0 : 0.0)");
  for (const char* op : {"<=", ">=", ">", "==", "!="})
    EXPECT_EQ(cuda(std::string("x ") + op + " y"), std::string("((v0 ") + op + " v1) ? 1.0 : 0.0)");
  EXPECT_EQ(cuda("x+1 < y*2"), "(((v0 + 0x1p+0) < (v1 * 0x1p+1)) ? 1.0 : 0.0)");
  EXPECT_EQ(cuda("x && y || z"), "((((v0 != 0.0 && v1 != 0.0) ? 1.0 : 0.0) != 0.0 || v2 != 0.0) ? 1.0 : 0.0)");
  EXPECT_EQ(cuda("x || y && z"), "((v0 != 0.0 || ((v1 != 0.0 && v2 != 0.0) ? 1.0 : 0.0) != 0.0) ? 1.0 : 0.0)");
  EXPECT_EQ(cuda("x < 0.5 ? 1 : 2"), "((((v0 < 0x1p-1) ? 1.0 : 0.0) != 0.0) ? 0x1p+0 : 0x1p+1)");
  // Right-associative: a ? b : (c ? d : e).
  EXPECT_EQ(cuda("x ? y : z ? t : 1"), "((v0 != 0.0) ? v1 : ((v2 != 0.0) ? v3 : 0x1p+0))");
}

TEST(CudaTranslation, FunctionsAsMuParserDefinesThem) {
  for (const char* f : {"sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "exp", "sqrt", "log10"})
    EXPECT_EQ(cuda(std::string(f) + "(x)"), std::string(f) + "(v0)");
  EXPECT_EQ(cuda("log(x)"), "log(v0)");  // natural logarithm in muParser 2.3
  EXPECT_EQ(cuda("ln(x)"), "log(v0)");
  EXPECT_EQ(cuda("log2(x)"), "(log(v0) / log(2.0))");
  EXPECT_EQ(cuda("rint(x)"), "floor(v0 + 0.5)");
  for (const char* f : {"asinh", "acosh", "atanh", "abs", "sign"})
    EXPECT_EQ(cuda(std::string(f) + "(x*y)"), std::string("gridflow_mu_") + f + "((v0 * v1))");
  EXPECT_EQ(cuda("sum(x, y, z)"), "(((0.0 + v0) + v1) + v2)");
  EXPECT_EQ(cuda("avg(x, y)"), "(((0.0 + v0) + v1) / 0x1p+1)");
  EXPECT_EQ(cuda("min(x, y, z)"), "gridflow_mu_min(gridflow_mu_min(v0, v1), v2)");
  EXPECT_EQ(cuda("max(x)"), "v0");
  EXPECT_EQ(cuda("sin(x+y)^2"), "pow(sin((v0 + v1)), 0x1p+1)");
}

TEST(CudaTranslation, WhatItDoesNotCoverFallsBackToTheHost) {
  EXPECT_EQ(translate_to_cuda("x = 2", {"x"}, {}), std::nullopt);   // assignment, which muParser allows
  EXPECT_EQ(translate_to_cuda("foo(x)", {"x"}, {}), std::nullopt);  // a name it does not know
  EXPECT_EQ(translate_to_cuda("x $ 2", {"x"}, {}), std::nullopt);
  // The expression keeps a host-only form then, with no error.
  const Expression e("heat.initial", "x = 2", {"x", "y"});
  EXPECT_TRUE(e.device_source().empty());
}

TEST(CudaTranslation, ExpressionCarriesItsDeviceFunction) {
  const Expression e("heat.initial", "sin(pi*x) * y^2 + a", {"x", "y"}, {{"a", 0.25}});
  const std::string s = e.device_source();
  EXPECT_NE(s.find("__device__ inline double gridflow_formula(double v0, double v1, double v2, double v3)"), std::string::npos) << s;
  EXPECT_NE(s.find("return ((sin((" + cuda_literal(M_PI) + " * v0)) * pow(v1, 0x1p+1)) + 0x1p-2);"), std::string::npos) << s;
  // A constant formula is folded to muParser's own value.
  const Expression c("heat.initial", "sin(1) / 3", {"x", "y"});
  EXPECT_NE(c.device_source().find("return " + cuda_literal(std::sin(1.0) / 3) + ";"), std::string::npos) << c.device_source();
}

// The host evaluates the formula as written, as the device form does: muParser's optimizer, which
// rewrote 3*(x+1) as x*3+3 and x*3*5 as x*15, stays off (in bulk and point by point).
TEST(CudaTranslation, TheHostEvaluatesAsWritten) {
  const Expression a("k", "3*(x+1)", {"x"}), b("k", "x*3*5", {"x"});
  std::vector<double> x(20000), out_a(x.size()), out_b(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = 0.001237 * static_cast<double>(i + 1);
  a.eval_bulk(static_cast<int>(x.size()), {x.data()}, out_a.data());
  b.eval_bulk(static_cast<int>(x.size()), {x.data()}, out_b.data());
  for (std::size_t i = 0; i < x.size(); ++i) {
    ASSERT_EQ(out_a[i], (x[i] + 1) * 3) << x[i];
    ASSERT_EQ(out_b[i], (x[i] * 3) * 5) << x[i];
    ASSERT_EQ(a.eval(x[i], 0, 0, 0), out_a[i]) << x[i];
  }
}

// A start of +0 everywhere is what a new field holds: no evaluation, no compilation, the same bits.
TEST(CudaTranslation, ZeroEverywhereIsOnlyPositiveZero) {
  using gridflow::solver::zero_everywhere;
  EXPECT_TRUE(zero_everywhere(Expression("heat.initial", "0", {"x", "y"})));
  EXPECT_TRUE(zero_everywhere(Expression("heat.initial", "1 - 1", {"x", "y"})));
  EXPECT_FALSE(zero_everywhere(Expression("heat.initial", "-0", {"x", "y"})));  // -0 has other bits
  EXPECT_FALSE(zero_everywhere(Expression("heat.initial", "0 * x", {"x", "y"})));  // -0 where x < 0, NaN for inf
  EXPECT_FALSE(zero_everywhere(Expression("heat.initial", "1e-300", {"x", "y"})));
}
