#include "autotune/slowest_rank_timer.hpp"

#include "mesh/check.hpp"

namespace gridflow::autotune {

double SlowestRankTimer::stop() {
  const double local = m_local->stop();
  double slowest = 0;
  GRIDFLOW_MPI_CHECK(MPI_Allreduce(&local, &slowest, 1, MPI_DOUBLE, MPI_MAX, m_comm));
  return slowest;
}

}  // namespace gridflow::autotune
