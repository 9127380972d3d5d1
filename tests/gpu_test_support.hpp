#pragma once
// GPU tests call GRIDFLOW_REQUIRE_GPU() first: without CUDA in the build, or without a visible
// device, the test is skipped with the reason instead of failing. (The GPU suite's main already
// exits with 77 before any case when no rank has a device, so CTest reports the whole suite
// skipped; the check stays for runs of single cases.) Tests of NCCL between ranks call
// GRIDFLOW_REQUIRE_NCCL_RANKS() instead, and cases that use no communicator but MPI_COMM_SELF
// call GRIDFLOW_ONE_RANK_CASE() after it.
//
// The suite runs at 1 and 2 ranks (CTest gpu, gpu.np2); the 2 ranks share the GPU on a one-GPU
// machine. Every skip decision below is the same on all ranks, and each collective in it is
// entered by all ranks or by none: one rank skipping while another enters a collective would hang.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>
#include <string>

#include "gridflow/config.hpp"
#include "halo/gpu_binding.hpp"
#include "halo/transport.hpp"
#include "mesh/device.hpp"
#include "mpi_test_support.hpp"

#define GRIDFLOW_REQUIRE_GPU()                                                               \
  do {                                                                                       \
    if (!GRIDFLOW_HAVE_CUDA) GTEST_SKIP() << "gridflow was built without CUDA";              \
    if (!::gridflow::mesh::gpu_available()) GTEST_SKIP() << "no CUDA device is visible";     \
  } while (0)

/// For a case that runs on one rank only (no communicator but MPI_COMM_SELF): under mpirun every
/// rank would repeat the one-rank entry's work on the same GPUs, so the gpu.np2 entry skips it.
#define GRIDFLOW_ONE_RANK_CASE()                                                                       \
  do {                                                                                                 \
    if (::gridflow::testing::world_size() > 1)                                                         \
      GTEST_SKIP() << "a one-rank case (MPI_COMM_SELF): the one-rank entry runs it, not each of the " \
                   << ::gridflow::testing::world_size() << " ranks";                                   \
  } while (0)

namespace gridflow::testing {

/// Collective over `comm` (GPUs bound first, bind_gpu_by_local_rank): why NCCL cannot carry
/// messages between its ranks here, or "" when it can. The same answer on every rank.
inline std::string nccl_unusable_reason(MPI_Comm comm) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  if (size < 2) return "NCCL carries messages between ranks and this runs on one; the gpu.np2 entry runs it on 2";
  if (!halo::nccl_available()) return "gridflow was built without NCCL";
  if (halo::ranks_share_gpu(comm)) return "two ranks share one GPU; NCCL needs a GPU per rank";
  return "";
}

/// Says once (rank 0) that a case covered the host-staged MPI transport only, and why; for cases
/// that loop over the transports usable here rather than skipping.
inline void note_nccl_not_tested(const std::string& reason) {
  if (reason.empty() || world_rank() != 0) return;
  std::printf("[   NOTE   ] NCCL transport not tested in %s: %s\n",
              ::testing::UnitTest::GetInstance()->current_test_info()->name(), reason.c_str());
  std::fflush(stdout);
}

}  // namespace gridflow::testing

/// Skips the test unless it runs on several ranks, each with a GPU of its own and NCCL in the
/// build (where halo.transport = "auto" resolves to NCCL and the transport is tuned). Binds each
/// rank to its GPU first. Where NCCL is usable, halo.transport = "auto" must pick it: a failure,
/// not a skip, so a broken choice cannot hide the NCCL cases.
#define GRIDFLOW_REQUIRE_NCCL_RANKS()                                                                          \
  do {                                                                                                         \
    GRIDFLOW_REQUIRE_GPU();                                                                                    \
    ::gridflow::halo::bind_gpu_by_local_rank(MPI_COMM_WORLD, /*allow_sharing=*/true);                          \
    const std::string nccl_unusable = ::gridflow::testing::nccl_unusable_reason(MPI_COMM_WORLD);               \
    if (!nccl_unusable.empty()) GTEST_SKIP() << "needs NCCL between ranks: " << nccl_unusable;                 \
    ASSERT_EQ(::gridflow::halo::resolve_transport(::gridflow::halo::TransportChoice::automatic,                \
                                                  ::gridflow::mesh::MemorySpace::device, MPI_COMM_WORLD),      \
              ::gridflow::halo::Transport::nccl)                                                               \
        << "halo.transport = auto must pick NCCL with a GPU per rank and NCCL built in";                       \
  } while (0)
