#pragma once
// The ranks of MPI_COMM_WORLD, for tests that run at any rank count (mpirun -np N).
#include <mpi.h>

namespace gridflow::testing {

inline int world_size() {
  int n = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

inline int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

}  // namespace gridflow::testing
