// Shared main for every gridflow test executable: MPI and Kokkos around GoogleTest. Rank 0 prints
// the usual report; other ranks print only their failures, tagged with the rank. The exit code is
// the worst over all ranks, so a failure on any rank fails the test under mpirun.
//
// Built a second time with GRIDFLOW_TEST_MAIN_NEEDS_GPU=1 for the GPU suite: there, before any
// case runs, all ranks agree whether the build has CUDA and every rank sees a device. When no
// rank does, the whole suite is skipped with one reason and exit code 77 (CTest's
// SKIP_RETURN_CODE), instead of each case skipping and CTest having to read the output; when
// only some ranks do, the suite fails (a machine set up that way is broken, not GPU-less).
#include <gtest/gtest.h>
#include <mpi.h>

#include <Kokkos_Core.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "gridflow/config.hpp"
#include "io/mpiio_workaround.hpp"
#include "mesh/device.hpp"
#include "mesh/host_threads.hpp"

#ifndef GRIDFLOW_TEST_MAIN_NEEDS_GPU
#define GRIDFLOW_TEST_MAIN_NEEDS_GPU 0
#endif

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

/// Exit code of a suite that cannot run here at all; registered as CTest's SKIP_RETURN_CODE.
constexpr int suite_skipped = 77;

/// Collective over MPI_COMM_WORLD: 0 when every rank may run GPU cases, suite_skipped when none
/// can (the reason printed once), 1 when only some can or when GRIDFLOW_TEST_REQUIRE_GPU=1 asks
/// for a device and none is there (the GPU machine, where skipping would hide a broken driver).
int check_gpu_suite_can_run(int rank, int size) {
  const int mine = GRIDFLOW_HAVE_CUDA && gridflow::mesh::gpu_available() ? 1 : 0;
  int fewest = 0, most = 0;
  MPI_Allreduce(&mine, &fewest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&mine, &most, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (fewest == 1) return 0;
  if (most == 1) {
    if (!mine) std::fprintf(stderr, "[rank %d] no CUDA device is visible here, but other ranks see one: GPU suite failed\n", rank);
    return 1;
  }
  const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
  const std::string reason = !GRIDFLOW_HAVE_CUDA ? "gridflow was built without CUDA"
                             : "no CUDA device is visible on any of the " + std::to_string(size) + " rank(s)" +
                                   (visible ? std::string(" (CUDA_VISIBLE_DEVICES=") + visible + ")" : std::string());
  const char* required = std::getenv("GRIDFLOW_TEST_REQUIRE_GPU");
  const bool must_run = required && std::strcmp(required, "0") != 0 && required[0] != '\0';
  if (rank == 0) {
    if (must_run) std::printf("[  FAILED  ] GPU suite: %s, and GRIDFLOW_TEST_REQUIRE_GPU is set\n", reason.c_str());
    else std::printf("[  SKIPPED ] GPU suite: %s; every GPU case skipped (exit code %d)\n", reason.c_str(), suite_skipped);
    std::fflush(stdout);
  }
  return must_run ? 1 : suite_skipped;
}
}  // namespace

int main(int argc, char** argv) {
  gridflow::io::avoid_broken_mpiio();
  int thread_level = MPI_THREAD_SINGLE;  // as gridflow asks: runs write output on a background thread
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &thread_level);
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
    // Listing the cases needs no device.
    if (GRIDFLOW_TEST_MAIN_NEEDS_GPU && !::testing::GTEST_FLAG(list_tests)) rc = check_gpu_suite_can_run(rank, size);
    if (rc == 0) rc = RUN_ALL_TESTS();
  }
  int worst = 0;
  MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return worst;
}
