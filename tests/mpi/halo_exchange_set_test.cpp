// HaloExchangeSet on host fields, in 2D and 3D: one set switching widths back and forth fills the
// ghosts each width must fill, its split begin/finish lets work run in between, and it counts the
// exchanges it makes by width (nothing on one rank, which exchanges nothing).
#include <gtest/gtest.h>
#include <mpi.h>

#include <string>
#include <vector>

#include "halo/halo_exchange_set.hpp"
#include "mesh/check.hpp"
#include "mesh/decomposition.hpp"
#include "mpi/halo_test_support.hpp"
#include "mpi_test_support.hpp"

namespace gridflow::halo::test {
namespace {

using gridflow::testing::world_rank;
using gridflow::testing::world_size;

template <class C>
class HaloExchangeSetTest : public ::testing::Test {};
using Cases = gridflow::testing::PrecisionDimCases;
TYPED_TEST_SUITE(HaloExchangeSetTest, Cases);

TYPED_TEST(HaloExchangeSetTest, SwitchingWidthsFillsTheGhostsOfEachWidthAndCountsThem) {
  using T = typename TypeParam::value_type;
  constexpr int Dim = TypeParam::dim;
  const mesh::Grid<Dim> grid = uneven_grid<Dim>(world_size());
  // Back and forth, every width again after another: a reused exchange must still fill its own
  // width and no more (check() wants the sentinel beyond it, and fill() resets every ghost).
  const std::vector<int> widths = {1, 3, 2, 3, 1, 2, 2};
  for (const auto& dims : process_grids<Dim>(world_size())) {
    const mesh::Decomposition<Dim> decomp(grid, MPI_COMM_WORLD, dims, max_width);
    mesh::Field<T, Dim> f(decomp.owned(), max_width, mesh::MemorySpace::host, "u");
    HaloExchangeSet<T, Dim> set(decomp, Transport::mpi, nullptr);
    ExchangeTally expected;
    for (std::size_t k = 0; k < widths.size(); ++k) {
      const int round = static_cast<int>(k);
      fill(f, round);
      set.exchange(f, widths[k]);
      if (world_size() > 1) ++expected[widths[k]];
      const Mismatches m = check(f, grid, widths[k], round);
      EXPECT_EQ(m.count, 0) << "process grid " << to_string<Dim>(dims) << " width " << widths[k] << " round " << round
                            << " rank " << world_rank() << ":" << m.first;
    }
    EXPECT_EQ(set.exchanges_by_width(), expected) << "process grid " << to_string<Dim>(dims);
  }
}

TYPED_TEST(HaloExchangeSetTest, BeginAndFinishLetWorkRunBetweenAndSwitchTransportCleanly) {
  using T = typename TypeParam::value_type;
  constexpr int Dim = TypeParam::dim;
  const mesh::Grid<Dim> grid = uneven_grid<Dim>(world_size());
  const mesh::Decomposition<Dim> decomp(grid, MPI_COMM_WORLD, {}, max_width);
  mesh::Field<T, Dim> f(decomp.owned(), max_width, mesh::MemorySpace::host, "u");
  HaloExchangeSet<T, Dim> set(decomp, Transport::mpi, nullptr);
  set.prepare(f, 2);  // built ahead: the exchange that follows must be the same one, still exact
  EXPECT_TRUE(set.exchanges_by_width().empty()) << "preparing is not exchanging";
  fill(f, 0);
  set.begin(f, 2);
  double sum = 0;  // work on owned points at least the width away from the neighbours
  for_each_point<Dim>(f.owned().grow(-2), [&](const auto& p) { sum += at(f, p); });
  double total = 0;
  MPI_Allreduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, decomp.comm());
  set.finish(f);
  const Mismatches m = check(f, grid, 2, 0);
  EXPECT_EQ(m.count, 0) << "rank " << world_rank() << ":" << m.first;
  EXPECT_EQ(set.transport(), Transport::mpi);
  if (world_size() > 1) {
    EXPECT_EQ(set.exchanges_by_width(), (ExchangeTally{{2, 1}}));
  }
}

TYPED_TEST(HaloExchangeSetTest, RefusesUnpairedCallsAndWidthsBeyondTheGhosts) {
  using T = typename TypeParam::value_type;
  constexpr int Dim = TypeParam::dim;
  const mesh::Grid<Dim> grid = uneven_grid<Dim>(world_size());
  const mesh::Decomposition<Dim> decomp(grid, MPI_COMM_WORLD, {}, max_width);
  mesh::Field<T, Dim> f(decomp.owned(), max_width, mesh::MemorySpace::host, "u");
  HaloExchangeSet<T, Dim> set(decomp, Transport::mpi, nullptr);
  if (world_size() == 1) {
    // One rank exchanges nothing, so nothing can be unpaired or too wide.
    EXPECT_NO_THROW(set.finish(f));
    EXPECT_NO_THROW(set.exchange(f, max_width + 1));
    EXPECT_TRUE(set.exchanges_by_width().empty());
    return;
  }
  EXPECT_THROW(set.finish(f), Error);
  EXPECT_THROW(set.prepare(f, max_width + 1), Error);
  EXPECT_THROW(set.prepare(f, 0), Error);
  fill(f, 1);
  set.begin(f, 1);
  EXPECT_THROW(set.begin(f, 2), Error);
  set.finish(f);
  const Mismatches m = check(f, grid, 1, 1);
  EXPECT_EQ(m.count, 0) << "a refused begin must not disturb the exchange in flight:" << m.first;
  EXPECT_EQ(set.exchanges_by_width(), (ExchangeTally{{1, 1}}));
}

}  // namespace
}  // namespace gridflow::halo::test
