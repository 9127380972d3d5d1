#include "app/loop/poisson_stepping.hpp"

#include "mesh/check.hpp"

namespace gridflow::app {

template <class T>
std::int64_t PoissonStepping<T>::step() const {
  if (m_report) return m_report->iterations;
  return m_solve ? m_solve->step() : 0;
}

template <class T>
void PoissonStepping<T>::conclude() {
  if (m_solve) {
    m_report = m_solve->finish();
  } else {
    m_report.emplace();
    m_report->converged = true;
  }
}

template <class T>
std::vector<NamedField<T, 3>> PoissonStepping<T>::fields() const {
  return {{"u", m_report || !m_solve ? &m_u : &m_solve->iterate()}};
}

template <class T>
const std::vector<solver::ResidualRecord>& PoissonStepping<T>::history() const {
  static const std::vector<solver::ResidualRecord> none;
  return m_solve ? m_solve->history() : none;
}

template <class T>
const solver::SolveReport& PoissonStepping<T>::report() const {
  GRIDFLOW_REQUIRE(m_report.has_value(), "the Poisson solve has not concluded");
  return *m_report;
}

template class PoissonStepping<float>;
template class PoissonStepping<double>;

}  // namespace gridflow::app
