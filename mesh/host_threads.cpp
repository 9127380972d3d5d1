#include "mesh/host_threads.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <thread>

#include "mesh/check.hpp"

namespace gridflow::mesh {

int share_host_threads(MPI_Comm comm) {
  MPI_Comm node = MPI_COMM_NULL;
  GRIDFLOW_MPI_CHECK(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
  int local_ranks = 1;
  GRIDFLOW_MPI_CHECK(MPI_Comm_size(node, &local_ranks));
  GRIDFLOW_MPI_CHECK(MPI_Comm_free(&node));
  if (const char* env = std::getenv("OMP_NUM_THREADS"); env && *env) return omp_get_max_threads();
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const int threads = std::max(1, cores / local_ranks);
  omp_set_num_threads(threads);
  return threads;
}

}  // namespace gridflow::mesh
