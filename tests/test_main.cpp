// Shared main for every gridflow test executable: MPI and Kokkos around GoogleTest. Rank 0 prints
// the usual report; other ranks print only their failures, tagged with the rank. The exit code is
// the worst over all ranks, so a failure on any rank fails the test under mpirun.
#include <gtest/gtest.h>
#include <mpi.h>

#include <Kokkos_Core.hpp>

#include <cstdio>

#include "io/mpiio_workaround.hpp"
#include "mesh/host_threads.hpp"

namespace {
class RankFailurePrinter : public ::testing::EmptyTestEventListener {
 public:
  explicit RankFailurePrinter(int rank) : m_rank(rank) {}
  void OnTestPartResult(const ::testing::TestPartResult& r) override {
    if (r.failed())
      std::fprintf(stderr, "[rank %d] failure at %s:%d\n%s\n", m_rank, r.file_name() ? r.file_name() : "?",
                   r.line_number(), r.summary());
  }

 private:
  int m_rank;
};
}  // namespace

int main(int argc, char** argv) {
  gridflow::io::avoid_broken_mpiio();
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  gridflow::mesh::share_host_threads(MPI_COMM_WORLD);
  int rc = 0;
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    ::testing::InitGoogleTest(&argc, argv);
    int size = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    // With several ranks, an exception GoogleTest caught on one rank would leave the others
    // waiting in their next collective until the CTest timeout: let it end the job instead.
    if (size > 1) ::testing::GTEST_FLAG(catch_exceptions) = false;
    if (rank != 0) {
      auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
      delete listeners.Release(listeners.default_result_printer());
      listeners.Append(new RankFailurePrinter(rank));
    }
    rc = RUN_ALL_TESTS();
  }
  int worst = 0;
  MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return worst;
}
