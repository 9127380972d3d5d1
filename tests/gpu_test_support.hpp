#pragma once
// GPU tests call GRIDFLOW_REQUIRE_GPU() first: without CUDA in the build, or without a visible
// device, the test is skipped with the reason instead of failing. Tests of the halo transport's
// tuning call GRIDFLOW_REQUIRE_NCCL_RANKS() instead.
#include <gtest/gtest.h>
#include <mpi.h>

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

/// Skips the test unless it runs on several ranks, each with a GPU of its own and NCCL in the
/// build (where halo.transport = "auto" resolves to NCCL and the transport is tuned). Binds each
/// rank to its GPU first.
#define GRIDFLOW_REQUIRE_NCCL_RANKS()                                                                          \
  do {                                                                                                         \
    GRIDFLOW_REQUIRE_GPU();                                                                                    \
    ::gridflow::halo::bind_gpu_by_local_rank(MPI_COMM_WORLD, /*allow_sharing=*/true);                          \
    if (::gridflow::testing::world_size() < 2) GTEST_SKIP() << "the halo transport is tuned on several ranks only; run under mpirun -np 2"; \
    if (::gridflow::halo::resolve_transport(::gridflow::halo::TransportChoice::automatic,                      \
                                            ::gridflow::mesh::MemorySpace::device,                             \
                                            MPI_COMM_WORLD) != ::gridflow::halo::Transport::nccl)              \
      GTEST_SKIP() << "needs NCCL in the build and a GPU of its own for every rank";                           \
  } while (0)
