#include "app/loop/heat_stepping.hpp"

#include "mesh/check.hpp"

namespace gridflow::app {

template <class T>
void HeatStepping<T>::advance_to(std::int64_t target) {
  m_solver.advance(target - m_solver.step());
  m_solver.wait();
  GRIDFLOW_MPI_CHECK(MPI_Barrier(m_comm));
}

template class HeatStepping<float>;
template class HeatStepping<double>;

}  // namespace gridflow::app
