#pragma once
// PhaseTable<T, Dim>: the observer that, when the run finishes, takes each phase's seconds (from
// the stepper's and the observers' timers), the maximum over the ranks, and the run's total wall
// time: the table the end-of-run report prints and the --summary JSON carries.
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "app/loop/observer.hpp"

namespace gridflow::app {

using Phases = std::vector<std::pair<std::string, double>>;  ///< name, seconds

template <class T, int Dim>
class PhaseTable final : public Observer<T, Dim> {
 public:
  /// `local_phases`: this rank's seconds per phase, in the table's order, asked once at the end.
  /// `wall_start`: MPI_Wtime() when the run started.
  PhaseTable(std::function<Phases()> local_phases, double wall_start)
      : m_local_phases(std::move(local_phases)), m_wall_start(wall_start) {}

  std::string name() const override { return "phase table"; }
  void act(const RunState<T, Dim>&, RunControl&) override {}
  /// Collective: the maxima over the ranks.
  void on_finish(const RunState<T, Dim>& state) override;

  /// After the run: each phase's seconds (max over ranks), the total wall time (max over ranks),
  /// and the two as a table (format_timer_table).
  const Phases& phases() const { return m_phases; }
  double total() const { return m_total; }
  std::string text() const;

 private:
  std::function<Phases()> m_local_phases;
  double m_wall_start;
  Phases m_phases;
  double m_total = 0;
};

extern template class PhaseTable<float, 2>;
extern template class PhaseTable<double, 2>;
extern template class PhaseTable<float, 3>;
extern template class PhaseTable<double, 3>;

}  // namespace gridflow::app
