// When the heat tuner measures the halo transport, and what its space and cache label then hold.
#include <gtest/gtest.h>

#include "solver/heat_tuning.hpp"

namespace {
using gridflow::halo::Transport;
using gridflow::mesh::MemorySpace;
}  // namespace

TEST(HeatTransportTuning, OnlyAutoOnSeveralGpusThatResolvedToNccl) {
  gridflow::solver::RunOptions run;
  EXPECT_TRUE(gridflow::solver::heat_transport_is_tuned(run, MemorySpace::device, Transport::nccl, 2));
  EXPECT_FALSE(gridflow::solver::heat_transport_is_tuned(run, MemorySpace::device, Transport::nccl, 1));
  EXPECT_FALSE(gridflow::solver::heat_transport_is_tuned(run, MemorySpace::host, Transport::mpi, 4));
  // "auto" fell back to MPI (no NCCL, or ranks sharing a GPU): nothing to choose between.
  EXPECT_FALSE(gridflow::solver::heat_transport_is_tuned(run, MemorySpace::device, Transport::mpi, 4));
  run.halo_transport = "nccl";  // the deck decided
  EXPECT_FALSE(gridflow::solver::heat_transport_is_tuned(run, MemorySpace::device, Transport::nccl, 4));
}

TEST(HeatTransportTuning, TheSpaceAndLabelNameTheTransport) {
  gridflow::solver::HeatSpaceOptions plain;
  auto with_transport = plain;
  with_transport.tunes_transport = true;
  with_transport.transport = Transport::nccl;
  const auto tuned = gridflow::solver::heat_space(MemorySpace::device, with_transport);
  EXPECT_EQ(tuned.default_configuration().at("nccl"), 1);
  EXPECT_EQ(tuned.enumerate().size(), 2 * gridflow::solver::heat_space(MemorySpace::device, plain).enumerate().size());
  EXPECT_FALSE(gridflow::solver::heat_space(MemorySpace::device, plain).default_configuration().has("nccl"));
}
