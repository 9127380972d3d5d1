#pragma once
// CoordinateFunction: a real function of the grid coordinates (x, y[, z]) and, for boundary values,
// of time t: how the numerics see the deck's formulas. Evaluated on the host, point by point or in
// batches, and on the device from its CUDA source (evaluate_on_device.hpp). The solvers know only
// this interface; the application implements it (muParser), so the numerics library links no
// expression parser.
#include <memory>
#include <string>
#include <vector>

namespace gridflow::solver {

class CoordinateFunction {
 public:
  virtual ~CoordinateFunction() = default;

  /// The value at one point; the arguments in the order of the function's variables.
  virtual double eval(double v0, double v1, double v2, double v3) const = 0;
  double eval(double v0, double v1 = 0, double v2 = 0) const { return eval(v0, v1, v2, 0); }
  /// out[k] = value at (columns[0][k], columns[1][k], ...) for k < n, one column per variable.
  virtual void eval_bulk(int n, const std::vector<const double*>& columns, double* out) const = 0;
  /// Whether the formula mentions `variable` (e.g. whether a boundary value depends on t).
  virtual bool uses(const std::string& variable) const = 0;
  /// Whether the formula uses none of its variables (its value is the same everywhere).
  virtual bool constant() const = 0;
  /// The formula as written, for messages.
  virtual const std::string& text() const = 0;
  /// Where the formula comes from (its deck key), for messages.
  virtual const std::string& key() const = 0;
  /// CUDA C++ source defining `__device__ double gridflow_formula(double v0, double v1, double v2,
  /// double v3)` (the arguments as for eval), which rounds as eval() does up to the ulp bounds of
  /// the CUDA math functions it calls; empty when the function has no device form.
  virtual std::string device_source() const { return {}; }
};

/// Functions are shared, immutable once made, by the configs and the solvers built from them.
using SharedFunction = std::shared_ptr<const CoordinateFunction>;

}  // namespace gridflow::solver
