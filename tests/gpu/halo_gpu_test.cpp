// Halo exchange on device fields, over each transport this build has (host-staged MPI always,
// NCCL when built in and every rank has its own GPU), at whatever rank count the test runs at.
// The values are filled and checked on the host; the device field is copied in and out.
#include <gtest/gtest.h>
#include <mpi.h>

#include <memory>
#include <string>
#include <vector>

#include "gpu_test_support.hpp"
#include "halo/gpu_binding.hpp"
#include "halo/halo_exchange.hpp"
#include "halo/halo_exchange_set.hpp"
#include "halo/nccl_comm.hpp"
#include "halo/transport.hpp"
#include "mesh/decomposition.hpp"
#include "mesh/device.hpp"
#include "mpi/halo_test_support.hpp"
#include "mpi_test_support.hpp"

namespace gridflow::halo::test {
namespace {

using gridflow::testing::world_size;
// Binds GPUs (sharing allowed, so any rank count runs) and lists the transports to test.
// Collective: every rank returns the same list.
std::vector<Transport> bind_and_list_transports() {
  bind_gpu_by_local_rank(MPI_COMM_WORLD, /*allow_sharing=*/true);
  std::vector<Transport> transports{Transport::mpi};
  if (nccl_available() && !ranks_share_gpu(MPI_COMM_WORLD)) transports.push_back(Transport::nccl);
  else if (world_size() > 1) gridflow::testing::note_nccl_not_tested(gridflow::testing::nccl_unusable_reason(MPI_COMM_WORLD));
  return transports;
}

// Host field -> device field, with the copy finished before work on `stream` may read it
// (a pageable cudaMemcpy can return before its DMA lands, and `stream` does not wait for the
// legacy default stream).
template <class T, int Dim>
void upload(mesh::Field<T, Dim>& device, const mesh::Field<T, Dim>& host) {
  device.copy_from(host);
  mesh::synchronize(nullptr);
}

template <class C>
class HaloGpuTest : public ::testing::Test {};
using Cases = gridflow::testing::PrecisionDimCases;
TYPED_TEST_SUITE(HaloGpuTest, Cases);

TYPED_TEST(HaloGpuTest, FillsFacesEdgesAndCornersOverEveryTransport) {
  GRIDFLOW_REQUIRE_GPU();
  using T = typename TypeParam::value_type;
  constexpr int Dim = TypeParam::dim;
  const auto transports = bind_and_list_transports();
  const mesh::Grid<Dim> grid = uneven_grid<Dim>(world_size());
  mesh::Stream stream;
  for (const Transport transport : transports) {
    for (const auto& dims : process_grids<Dim>(world_size())) {
      const mesh::Decomposition<Dim> decomp(grid, MPI_COMM_WORLD, dims, max_width);
      mesh::Field<T, Dim> host(decomp.owned(), max_width, mesh::MemorySpace::host, "u_host");
      mesh::Field<T, Dim> device(decomp.owned(), max_width, mesh::MemorySpace::device, "u");
      // One NCCL communicator for all widths, as a solver with several exchanges would share it.
      std::shared_ptr<const NcclComm> nccl;
      if (transport == Transport::nccl) nccl = std::make_shared<const NcclComm>(decomp.comm());
      for (int w = 1; w <= max_width; ++w) {
        HaloExchange<T, Dim> ex(decomp, device, w, transport, stream.get(), nccl);
        for (int round = 0; round < 2; ++round) {
          fill(host, round);
          upload(device, host);
          ex.exchange(device);
          mesh::synchronize(stream.get());
          host.copy_from(device);
          const Mismatches m = check(host, grid, w, round);
          EXPECT_EQ(m.count, 0) << to_string(transport) << " process grid " << to_string<Dim>(dims) << " width " << w
                                << " round " << round << " rank " << decomp.rank() << " owned " << decomp.owned()
                                << ":" << m.first;
        }
      }
    }
  }
}

TYPED_TEST(HaloGpuTest, BeginFinishOverlapsOtherStreamWorkAndExchanges) {
  GRIDFLOW_REQUIRE_GPU();
  using T = typename TypeParam::value_type;
  constexpr int Dim = TypeParam::dim;
  const auto transports = bind_and_list_transports();
  const mesh::Grid<Dim> grid = uneven_grid<Dim>(world_size());
  const mesh::Decomposition<Dim> decomp(grid, MPI_COMM_WORLD, {}, max_width);
  mesh::Stream stream;
  for (const Transport transport : transports) {
    mesh::Field<T, Dim> host(decomp.owned(), max_width, mesh::MemorySpace::host, "host");
    mesh::Field<T, Dim> a(decomp.owned(), max_width, mesh::MemorySpace::device, "a");
    mesh::Field<T, Dim> b(decomp.owned(), max_width, mesh::MemorySpace::device, "b");
    mesh::Field<T, Dim> scratch(decomp.owned(), max_width, mesh::MemorySpace::device, "scratch");
    std::shared_ptr<const NcclComm> nccl;
    if (transport == Transport::nccl) nccl = std::make_shared<const NcclComm>(decomp.comm());
    HaloExchange<T, Dim> ex_a(decomp, a, max_width, transport, stream.get(), nccl);
    HaloExchange<T, Dim> ex_b(decomp, b, 1, transport, stream.get(), nccl);
    fill(host, 0);
    upload(a, host);
    fill(host, 1);
    upload(b, host);

    ex_a.begin(a);
    // Work queued on the same stream between begin and finish, as interior updates would be.
    mesh::copy_bytes_async(scratch.allocation(), mesh::MemorySpace::device, b.allocation(), mesh::MemorySpace::device,
                           b.allocated_bytes(), stream.get());
    ex_b.begin(b);
    ex_b.finish(b);
    ex_a.finish(a);
    mesh::synchronize(stream.get());

    host.copy_from(a);
    const Mismatches ma = check(host, grid, max_width, 0);
    EXPECT_EQ(ma.count, 0) << to_string(transport) << " field a rank " << decomp.rank() << ":" << ma.first;
    host.copy_from(b);
    const Mismatches mb = check(host, grid, 1, 1);
    EXPECT_EQ(mb.count, 0) << to_string(transport) << " field b rank " << decomp.rank() << ":" << mb.first;
  }
}

TYPED_TEST(HaloGpuTest, OneSetSwitchesWidthsAndTransportsBetweenExchanges) {
  GRIDFLOW_REQUIRE_GPU();
  using T = typename TypeParam::value_type;
  constexpr int Dim = TypeParam::dim;
  const auto transports = bind_and_list_transports();
  const mesh::Grid<Dim> grid = uneven_grid<Dim>(world_size());
  const mesh::Decomposition<Dim> decomp(grid, MPI_COMM_WORLD, {}, max_width);
  mesh::Stream stream;
  mesh::Field<T, Dim> host(decomp.owned(), max_width, mesh::MemorySpace::host, "u_host");
  mesh::Field<T, Dim> device(decomp.owned(), max_width, mesh::MemorySpace::device, "u");
  // As the on-line tuner drives a solver's set: every transport at every width, in turn, through
  // one set (whose NCCL exchanges share one communicator), split into begin and finish.
  HaloExchangeSet<T, Dim> set(decomp, Transport::mpi, stream.get());
  ExchangeTally expected;
  int round = 0;
  for (const int w : {1, max_width, 2, 1})
    for (const Transport transport : transports) {
      set.set_transport(transport);
      fill(host, round);
      upload(device, host);
      set.begin(device, w);
      set.finish(device);
      if (world_size() > 1) ++expected[w];
      mesh::synchronize(stream.get());
      host.copy_from(device);
      const Mismatches m = check(host, grid, w, round);
      EXPECT_EQ(m.count, 0) << to_string(transport) << " width " << w << " round " << round << " rank " << decomp.rank()
                            << ":" << m.first;
      ++round;
    }
  EXPECT_EQ(set.exchanges_by_width(), expected);
}

TEST(HaloGpuTransport, NcclIsRefusedForHostFieldsAndAutoPicksADeviceTransport) {
  GRIDFLOW_REQUIRE_GPU();
  const auto transports = bind_and_list_transports();
  const mesh::Grid<2> grid = uneven_grid<2>(world_size());
  const mesh::Decomposition<2> decomp(grid, MPI_COMM_WORLD, {}, max_width);
  mesh::Field<double, 2> host(decomp.owned(), max_width, mesh::MemorySpace::host, "host");
  EXPECT_THROW((HaloExchange<double, 2>(decomp, host, 1, Transport::nccl, nullptr)), Error);
  const Transport chosen = resolve_transport(TransportChoice::automatic, mesh::MemorySpace::device, MPI_COMM_WORLD);
  const bool nccl_usable = transports.size() == 2;
  EXPECT_EQ(chosen, nccl_usable && world_size() > 1 ? Transport::nccl : Transport::mpi);
}

}  // namespace
}  // namespace gridflow::halo::test
