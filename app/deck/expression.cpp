#include "app/deck/expression.hpp"

#include <muParser.h>

#include <algorithm>
#include <cmath>

#include "app/deck/cuda_translation.hpp"
#include "mesh/check.hpp"

namespace gridflow::app {

Expression::Expression(const std::string& key, const std::string& text, const std::vector<std::string>& variables,
                       const std::map<std::string, double>& constants)
    : m_key(key), m_text(text), m_parser(std::make_unique<mu::Parser>()), m_values(new double[4]()), m_variables(variables) {
  GRIDFLOW_REQUIRE(variables.size() <= 4, "an expression takes at most four variables");
  std::string names;
  for (const auto& v : variables) names += (names.empty() ? "" : ", ") + v;
  try {
    m_parser->EnableOptimizer(false);
    m_parser->DefineConst("pi", M_PI);
    m_parser->DefineConst("e", M_E);
    for (const auto& [name, value] : constants) m_parser->DefineConst(name, value);
    for (std::size_t i = 0; i < variables.size(); ++i) m_parser->DefineVar(variables[i], &m_values[i]);
    m_parser->SetExpr(text);
    for (const auto& [name, address] : m_parser->GetUsedVar()) {
      (void)address;
      m_used.push_back(name);
    }
    m_parser->Eval();  // bytecode is built on first evaluation; errors surface here
  } catch (const mu::Parser::exception_type& e) {
    std::string reason = e.GetMsg();
    if (e.GetCode() == mu::ecUNASSIGNABLE_TOKEN)
      reason = "unknown name '" + e.GetToken() + "' (it may use " + (names.empty() ? "no variables" : names) + ")";
    throw InputError("key '" + key + "': cannot use expression \"" + text + "\": " + reason);
  }
  // Every constant with the value the parser uses: Debian's muParser defines _pi as 3.14159265359,
  // not the double nearest pi, so the translation must not assume the textbook value.
  std::map<std::string, double> all_constants;
  for (const auto& [name, value] : m_parser->GetConst()) all_constants.emplace(name, value);
  if (constant()) {
    m_device_source = cuda_formula_source(cuda_literal(eval(0, 0, 0, 0)));
  } else if (const auto translated = translate_to_cuda(text, variables, all_constants)) {
    m_device_source = cuda_formula_source(*translated);
  }
}

Expression::~Expression() = default;
Expression::Expression(Expression&&) noexcept = default;
Expression& Expression::operator=(Expression&&) noexcept = default;

double Expression::eval(double v0, double v1, double v2, double v3) const {
  m_values[0] = v0;
  m_values[1] = v1;
  m_values[2] = v2;
  m_values[3] = v3;
  try {
    return m_parser->Eval();
  } catch (const mu::Parser::exception_type& e) {
    throw InputError("key '" + m_key + "': evaluating \"" + m_text + "\" failed: " + e.GetMsg());
  }
}

void Expression::eval_bulk(int n, const std::vector<const double*>& columns, double* out) const {
  GRIDFLOW_REQUIRE(columns.size() == m_variables.size(), "eval_bulk needs one column per variable");
  if (n <= 0) return;
  try {
    for (std::size_t i = 0; i < columns.size(); ++i) m_parser->DefineVar(m_variables[i], const_cast<double*>(columns[i]));
    m_parser->Eval(out, n);
    for (std::size_t i = 0; i < columns.size(); ++i) m_parser->DefineVar(m_variables[i], &m_values[i]);
  } catch (const mu::Parser::exception_type& e) {
    throw InputError("key '" + m_key + "': evaluating \"" + m_text + "\" failed: " + e.GetMsg());
  }
}

bool Expression::uses(const std::string& variable) const {
  return std::find(m_used.begin(), m_used.end(), variable) != m_used.end();
}

}  // namespace gridflow::app
