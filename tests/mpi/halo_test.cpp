// Halo exchange on host fields at any rank count: every width 1..W on a field with ghost W,
// grids that do not split evenly, process grids that split each axis in turn.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdlib>
#include <string>

#include "halo/gpu_binding.hpp"
#include "halo/halo_exchange.hpp"
#include "halo/transport.hpp"
#include "mesh/check.hpp"
#include "mesh/decomposition.hpp"
#include "mpi/halo_test_support.hpp"
#include "mpi_test_support.hpp"

namespace gridflow::halo::test {
namespace {

using gridflow::testing::world_size;
using gridflow::testing::world_rank;
// Exchanges `f` twice with different values (the second round must move fresh data through
// reused buffers) and checks every ghosted point after each.
template <class T, int Dim>
void exchange_and_check(HaloExchange<T, Dim>& ex, mesh::Field<T, Dim>& f, const mesh::Grid<Dim>& grid,
                        const std::string& where) {
  for (int round = 0; round < 2; ++round) {
    fill(f, round);
    ex.exchange(f);
    const Mismatches m = check(f, grid, ex.width(), round);
    EXPECT_EQ(m.count, 0) << where << " width " << ex.width() << " round " << round << " rank " << world_rank()
                          << " owned " << f.owned() << ":" << m.first;
  }
}

template <class C>
class HaloExchangeTest : public ::testing::Test {};
using Cases = gridflow::testing::PrecisionDimCases;
TYPED_TEST_SUITE(HaloExchangeTest, Cases);

TYPED_TEST(HaloExchangeTest, FillsFacesEdgesAndCornersForEveryWidthAndProcessGrid) {
  using T = typename TypeParam::value_type;
  constexpr int Dim = TypeParam::dim;
  const mesh::Grid<Dim> grid = uneven_grid<Dim>(world_size());
  for (const auto& dims : process_grids<Dim>(world_size())) {
    const mesh::Decomposition<Dim> decomp(grid, MPI_COMM_WORLD, dims, max_width);
    mesh::Field<T, Dim> f(decomp.owned(), max_width, mesh::MemorySpace::host, "u");
    for (int w = 1; w <= max_width; ++w) {
      HaloExchange<T, Dim> ex(decomp, f, w, Transport::mpi, nullptr);
      if (world_size() > 1) {
        EXPECT_FALSE(ex.regions().empty());
      }
      for (const auto& r : ex.regions()) {
        for (int d = 0; d < Dim; ++d) {
          EXPECT_LE(std::abs(r.offset[d]), 1) << "only next neighbours at this width";
        }
      }
      exchange_and_check(ex, f, grid, "process grid " + to_string<Dim>(dims));
    }
  }
}

TYPED_TEST(HaloExchangeTest, BeginFinishWithWorkInBetweenGivesTheSameGhosts) {
  using T = typename TypeParam::value_type;
  constexpr int Dim = TypeParam::dim;
  const mesh::Grid<Dim> grid = uneven_grid<Dim>(world_size());
  const mesh::Decomposition<Dim> decomp(grid, MPI_COMM_WORLD, {}, max_width);
  mesh::Field<T, Dim> a(decomp.owned(), max_width, mesh::MemorySpace::host, "a");
  mesh::Field<T, Dim> b(decomp.owned(), max_width, mesh::MemorySpace::host, "b");
  HaloExchange<T, Dim> ex_a(decomp, a, max_width, Transport::mpi, nullptr);
  HaloExchange<T, Dim> ex_b(decomp, b, 1, Transport::mpi, nullptr);
  fill(a, 0);
  fill(b, 1);

  ex_a.begin(a);
  EXPECT_TRUE(ex_a.in_flight());
  // Interior work reads owned points while messages are in flight.
  double sum = 0;
  for_each_point<Dim>(a.owned().grow(-max_width), [&](const auto& p) { sum += at(a, p); });
  // Other traffic on the same communicator, with tags a halo message could carry, and a
  // collective: the exchange's private communicator must keep them apart.
  const int rank = decomp.rank(), size = decomp.size();
  for (int tag = 0; tag < 27; ++tag) {
    double out = rank, in = -1;
    MPI_Sendrecv(&out, 1, MPI_DOUBLE, (rank + 1) % size, tag, &in, 1, MPI_DOUBLE, (rank + size - 1) % size, tag,
                 decomp.comm(), MPI_STATUS_IGNORE);
    EXPECT_EQ(in, (rank + size - 1) % size);
  }
  double total = 0;
  MPI_Allreduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, decomp.comm());
  // A second exchange in flight at the same time, finished first.
  ex_b.begin(b);
  ex_b.finish(b);
  ex_a.finish(a);
  EXPECT_FALSE(ex_a.in_flight());

  const Mismatches ma = check(a, grid, max_width, 0), mb = check(b, grid, 1, 1);
  EXPECT_EQ(ma.count, 0) << "rank " << rank << ":" << ma.first;
  EXPECT_EQ(mb.count, 0) << "rank " << rank << ":" << mb.first;
}

TYPED_TEST(HaloExchangeTest, WidthBeyondANeighboursExtentReachesFartherRanks) {
  using T = typename TypeParam::value_type;
  constexpr int Dim = TypeParam::dim;
  // Along axis 0 every rank owns one or two points, so a width-3 halo spans several ranks.
  mesh::Grid<Dim> grid = uneven_grid<Dim>(world_size());
  const int size = world_size();
  grid.n[0] = 2 * size - 2 + (size == 1);
  std::array<int, Dim> dims{};
  dims.fill(1);
  dims[0] = size;
  const mesh::Decomposition<Dim> decomp(grid, MPI_COMM_WORLD, dims, 1);
  mesh::Field<T, Dim> f(decomp.owned(), max_width, mesh::MemorySpace::host, "u");
  HaloExchange<T, Dim> ex(decomp, f, max_width, Transport::mpi, nullptr);
  bool far = false;
  for (const auto& r : ex.regions()) far = far || std::abs(r.offset[0]) > 1;
  // Parts along axis 0 hold 2 points, the last 1: with width 3 a rank reaches the rank two
  // steps away wherever there is one.
  const int c = decomp.coords()[0];
  if (c >= 2 || c + 2 <= size - 1) {
    EXPECT_TRUE(far) << "rank " << decomp.rank() << " has no region beyond its neighbours";
  }
  exchange_and_check(ex, f, grid, "process grid " + to_string<Dim>(dims));
}

TYPED_TEST(HaloExchangeTest, RejectsBadWidthsTransportsAndFields) {
  using T = typename TypeParam::value_type;
  constexpr int Dim = TypeParam::dim;
  const mesh::Grid<Dim> grid = uneven_grid<Dim>(world_size());
  const mesh::Decomposition<Dim> decomp(grid, MPI_COMM_WORLD, {}, max_width);
  mesh::Field<T, Dim> f(decomp.owned(), max_width, mesh::MemorySpace::host, "u");
  EXPECT_THROW((HaloExchange<T, Dim>(decomp, f, max_width + 1, Transport::mpi, nullptr)), Error);
  EXPECT_THROW((HaloExchange<T, Dim>(decomp, f, 0, Transport::mpi, nullptr)), Error);
  EXPECT_THROW((HaloExchange<T, Dim>(decomp, f, 1, Transport::nccl, nullptr)), Error);  // host field
  try {
    HaloExchange<T, Dim> too_wide(decomp, f, max_width + 2, Transport::mpi, nullptr);
    ADD_FAILURE() << "width " << max_width + 2 << " on ghost " << max_width << " was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("exceeds the ghost width 3"), std::string::npos) << e.what();
  }

  HaloExchange<T, Dim> ex(decomp, f, 2, Transport::mpi, nullptr);
  mesh::Field<T, Dim> thin(decomp.owned(), 2, mesh::MemorySpace::host, "thin");
  mesh::Field<T, Dim> other(decomp.owned(), max_width, mesh::MemorySpace::host, "other");
  EXPECT_THROW(ex.begin(thin), Error);  // another layout
  EXPECT_THROW(ex.finish(f), Error);    // nothing begun
  fill(f, 0);
  ex.begin(f);
  EXPECT_THROW(ex.begin(f), Error);      // already in flight
  EXPECT_THROW(ex.finish(other), Error);  // not the field begun
  ex.finish(f);
  const Mismatches m = check(f, grid, 2, 0);
  EXPECT_EQ(m.count, 0) << "a rejected call must not disturb the exchange in flight:" << m.first;
}

TEST(HaloTransport, ParsesTheDeckValues) {
  EXPECT_EQ(parse_transport("mpi"), TransportChoice::mpi);
  EXPECT_EQ(parse_transport("nccl"), TransportChoice::nccl);
  EXPECT_EQ(parse_transport("auto"), TransportChoice::automatic);
  EXPECT_THROW(parse_transport("MPI"), InputError);
  try {
    parse_transport("ucx");
    ADD_FAILURE() << "\"ucx\" was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("halo.transport"), std::string::npos) << e.what();
  }
  for (auto c : {TransportChoice::mpi, TransportChoice::nccl, TransportChoice::automatic})
    EXPECT_EQ(parse_transport(to_string(c)), c);
}

TEST(HaloTransport, ResolvesAutoAndRefusesImpossibleChoices) {
  EXPECT_EQ(resolve_transport(TransportChoice::mpi, mesh::MemorySpace::host, MPI_COMM_WORLD), Transport::mpi);
  EXPECT_EQ(resolve_transport(TransportChoice::automatic, mesh::MemorySpace::host, MPI_COMM_WORLD), Transport::mpi);
  EXPECT_THROW(resolve_transport(TransportChoice::nccl, mesh::MemorySpace::host, MPI_COMM_WORLD), InputError);
  if (!nccl_available()) {
    EXPECT_EQ(resolve_transport(TransportChoice::automatic, mesh::MemorySpace::device, MPI_COMM_WORLD), Transport::mpi);
    EXPECT_THROW(resolve_transport(TransportChoice::nccl, mesh::MemorySpace::device, MPI_COMM_WORLD), InputError);
  }
  if (world_size() == 1) {
    EXPECT_EQ(resolve_transport(TransportChoice::automatic, mesh::MemorySpace::device, MPI_COMM_WORLD), Transport::mpi);
  }
}

TEST(HaloGpuBinding, RuleNamesTheNodeAndTheFix) {
  EXPECT_EQ(gpu_binding_problem(4, 4, false, "n1"), "");
  EXPECT_EQ(gpu_binding_problem(2, 4, false, "n1"), "");
  EXPECT_EQ(gpu_binding_problem(8, 4, true, "n1"), "");
  EXPECT_EQ(gpu_binding_problem(8, 4, false, "n1"),
            "8 ranks on node n1 but only 4 GPUs; set device_sharing = true in the deck to share them");
  EXPECT_NE(gpu_binding_problem(1, 0, true, "n1").find("no CUDA device"), std::string::npos);
}

TEST(HaloGpuBinding, EveryRankAgreesWhetherBindingFails) {
  // Works on a machine with or without GPUs: the expectation follows what MPI reports.
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int local_rank = 0, local_size = 1;
  MPI_Comm_rank(node, &local_rank);
  MPI_Comm_size(node, &local_size);
  MPI_Comm_free(&node);
  const int gpus = mesh::gpu_count();
  int any_without = gpus == 0, any_crowded = local_size > gpus;
  MPI_Allreduce(MPI_IN_PLACE, &any_without, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &any_crowded, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);

  if (any_without) {
    EXPECT_THROW(bind_gpu_by_local_rank(MPI_COMM_WORLD, true), InputError);
    return;
  }
  if (any_crowded) {
    try {
      bind_gpu_by_local_rank(MPI_COMM_WORLD, false);
      ADD_FAILURE() << "binding more ranks than GPUs without sharing did not throw";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("device_sharing = true"), std::string::npos) << e.what();
    }
  } else {
    EXPECT_EQ(bind_gpu_by_local_rank(MPI_COMM_WORLD, false), local_rank % gpus);
  }
  EXPECT_EQ(bind_gpu_by_local_rank(MPI_COMM_WORLD, true), local_rank % gpus);
}

}  // namespace
}  // namespace gridflow::halo::test
