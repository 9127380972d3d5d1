#pragma once
// Expression: a formula from the deck (muParser syntax: sin, exp, ^, pi, e, ...) of a fixed set of
// variables, checked when it is made: a syntax error or a variable outside the set is an
// InputError naming the deck key. Not thread-safe (muParser keeps its state in the parser).
// muParser's bytecode optimizer is off: it rewrote 3*(x+1) as x*3+3, which rounds differently, and
// the device form (cuda_translation.hpp) computes the operations as written, so that host and
// device agree to the bit wherever they perform the same operations.
// The application's implementation of the solvers' CoordinateFunction.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "solver/coordinate_function.hpp"

namespace mu {
class Parser;
}

namespace gridflow::app {

class Expression final : public solver::CoordinateFunction {
 public:
  /// `variables`: the names the formula may use, in the order eval() takes their values.
  /// `constants`: extra named values (e.g. the diffusivity a).
  Expression(const std::string& key, const std::string& text, const std::vector<std::string>& variables,
             const std::map<std::string, double>& constants = {});
  ~Expression() override;
  Expression(Expression&&) noexcept;
  Expression& operator=(Expression&&) noexcept;

  using solver::CoordinateFunction::eval;
  double eval(double v0, double v1, double v2, double v3) const override;
  /// out[k] = value at (columns[0][k], columns[1][k], ...) for k < n: muParser's bulk mode
  /// (OpenMP-parallel where the library was built so), one column per variable.
  void eval_bulk(int n, const std::vector<const double*>& columns, double* out) const override;
  /// Whether the formula mentions `variable` (e.g. whether a boundary value depends on t).
  bool uses(const std::string& variable) const override;
  /// Whether the formula uses none of its variables (its value is the same everywhere).
  bool constant() const override { return m_used.empty(); }
  const std::string& text() const override { return m_text; }
  const std::string& key() const override { return m_key; }
  /// The CUDA form of the formula (a constant one folded to its host value), or empty.
  std::string device_source() const override { return m_device_source; }

 private:
  std::string m_key;
  std::string m_text;
  std::unique_ptr<mu::Parser> m_parser;
  std::unique_ptr<double[]> m_values;  // muParser binds variables by address
  std::vector<std::string> m_used;
  std::vector<std::string> m_variables;
  std::string m_device_source;
};

}  // namespace gridflow::app
