// When the heat and Jacobi tuners measure the halo transport, and what their spaces and cache
// labels then hold.
#include <gtest/gtest.h>

#include "solver/heat_tuning.hpp"
#include "solver/jacobi_tuning.hpp"
#include "autotune/transport_tuning.hpp"

namespace {
using gridflow::halo::Transport;
using gridflow::mesh::MemorySpace;
}  // namespace

TEST(TransportTuning, OnlyAutoOnSeveralGpusThatResolvedToNccl) {
  gridflow::solver::RunOptions run;
  EXPECT_TRUE(gridflow::autotune::halo_transport_is_tuned(run.halo_transport, MemorySpace::device, Transport::nccl, 2));
  EXPECT_FALSE(gridflow::autotune::halo_transport_is_tuned(run.halo_transport, MemorySpace::device, Transport::nccl, 1));
  EXPECT_FALSE(gridflow::autotune::halo_transport_is_tuned(run.halo_transport, MemorySpace::host, Transport::mpi, 4));
  // "auto" fell back to MPI (no NCCL, or ranks sharing a GPU): nothing to choose between.
  EXPECT_FALSE(gridflow::autotune::halo_transport_is_tuned(run.halo_transport, MemorySpace::device, Transport::mpi, 4));
  run.halo_transport = gridflow::halo::TransportChoice::nccl;  // the deck decided
  EXPECT_FALSE(gridflow::autotune::halo_transport_is_tuned(run.halo_transport, MemorySpace::device, Transport::nccl, 4));
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

TEST(TransportTuning, AConfigurationNamesItsTransport) {
  gridflow::autotune::Configuration c;
  EXPECT_EQ(gridflow::autotune::halo_transport_of(c, Transport::nccl), Transport::nccl);  // not tuned: unchanged
  c.set("nccl", 0);
  EXPECT_EQ(gridflow::autotune::halo_transport_of(c, Transport::nccl), Transport::mpi);
  c.set("nccl", 1);
  EXPECT_EQ(gridflow::autotune::halo_transport_of(c, Transport::mpi), Transport::nccl);
}

TEST(JacobiTransportTuning, TheSpaceAndLabelNameTheTransport) {
  using gridflow::solver::jacobi_space;
  const gridflow::solver::GhostWidthPlan tuned_width{1, {1, 2}}, fixed_width{1, {}};
  const auto plain = jacobi_space(MemorySpace::device, sizeof(double), tuned_width);
  const auto tuned = jacobi_space(MemorySpace::device, sizeof(double), tuned_width, true, Transport::nccl);
  EXPECT_FALSE(plain.default_configuration().has("nccl"));
  EXPECT_EQ(tuned.default_configuration().at("nccl"), 1);
  EXPECT_EQ(tuned.enumerate().size(), 2 * plain.enumerate().size());
  EXPECT_EQ(jacobi_space(MemorySpace::device, sizeof(double), fixed_width, true, Transport::mpi).default_configuration().at("nccl"), 0);
}
