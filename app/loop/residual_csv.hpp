#pragma once
// ResidualCsv<T>: the observer that writes a Poisson solve's residual history beside its output
// at the end of the run: <directory>/<basename>_residual.csv, "iteration,relative_residual,seconds",
// written by rank 0.
#include <string>

#include "app/loop/observer.hpp"
#include "app/loop/poisson_stepping.hpp"

namespace gridflow::app {

template <class T>
class ResidualCsv final : public Observer<T, 3> {
 public:
  /// `stepping` must outlive this. `writes`: rank 0's.
  ResidualCsv(const PoissonStepping<T>& stepping, const std::string& directory, const std::string& basename, bool writes);

  std::string name() const override { return "residual history"; }
  bool acts_at_end() const override { return true; }
  /// Rank 0 only; throws Error there when the file cannot be written.
  void act(const RunState<T, 3>& state, RunControl& control) override;

  const std::string& path() const { return m_path; }

 private:
  const PoissonStepping<T>& m_stepping;
  std::string m_path;
  bool m_writes;
};

extern template class ResidualCsv<float>;
extern template class ResidualCsv<double>;

}  // namespace gridflow::app
