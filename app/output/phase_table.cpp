#include "app/output/phase_table.hpp"

#include <mpi.h>

#include "app/loop/progress.hpp"
#include "mesh/check.hpp"

namespace gridflow::app {

namespace {
double max_over_ranks(double v, MPI_Comm comm) {
  double out = 0;
  GRIDFLOW_MPI_CHECK(MPI_Allreduce(&v, &out, 1, MPI_DOUBLE, MPI_MAX, comm));
  return out;
}
}  // namespace

template <class T, int Dim>
void PhaseTable<T, Dim>::on_finish(const RunState<T, Dim>& state) {
  m_phases = m_local_phases();  // may wait for device timers
  m_total = max_over_ranks(MPI_Wtime() - m_wall_start, state.comm());
  for (auto& [name, seconds] : m_phases) seconds = max_over_ranks(seconds, state.comm());
}

template <class T, int Dim>
std::string PhaseTable<T, Dim>::text() const {
  return format_timer_table(m_phases, m_total);
}

template class PhaseTable<float, 2>;
template class PhaseTable<double, 2>;
template class PhaseTable<float, 3>;
template class PhaseTable<double, 3>;

}  // namespace gridflow::app
