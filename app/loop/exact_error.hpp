#pragma once
// ExactError<T>: the observer that measures, at the end of a Poisson run, the largest difference
// over the grid between the solution and the exact one the deck gives (poisson.exact); on the device
// where the formula has a device form (solver::max_difference_on_device), else on the host.
#include <optional>
#include <string>

#include "app/loop/observer.hpp"
#include "mesh/decomposition.hpp"
#include "mesh/host_device.hpp"
#include "mesh/memory_space.hpp"
#include "solver/coordinate_function.hpp"

namespace gridflow::app {

template <class T>
class ExactError final : public Observer<T, 3> {
 public:
  /// `exact` must outlive this.
  explicit ExactError(const solver::CoordinateFunction& exact) : m_exact(exact) {}

  std::string name() const override { return "exact error"; }
  bool acts_at_end() const override { return true; }
  /// Collective: the max over the ranks.
  void act(const RunState<T, 3>& state, RunControl& control) override;

  /// Max over the grid points of |u - exact|, once measured.
  const std::optional<double>& value() const { return m_value; }

 private:
  const solver::CoordinateFunction& m_exact;
  std::optional<double> m_value;
};

/// Collective: InputError naming `key` (poisson.exact) when `exact` is NaN or infinite at some grid
/// point, with the first such point; the error against it would be NaN or infinite (or, as a max
/// that skips NaN, too small). In a device run a formula with a device form is checked on the
/// device first; only a failing check is redone on the host to name the point.
void require_finite_exact(const std::string& key, const solver::CoordinateFunction& exact, const mesh::Decomposition<3>& d,
                          mesh::MemorySpace space, StreamHandle stream);

extern template class ExactError<float>;
extern template class ExactError<double>;

}  // namespace gridflow::app
