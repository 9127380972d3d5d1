// The distributed pieces of the spectral solver: BoxRedistribution between arbitrary box
// distributions (empty boxes, partial cover, ghosts untouched), and DistributedSineTransform on a single
// sine mode, whose transform is one coefficient, on every rank count and process grid.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <vector>

#include "mesh/decomposition.hpp"
#include "halo/box_redistribution.hpp"
#include "transform/distributed_sine_transform.hpp"
#include "mpi_test_support.hpp"

namespace {

using gridflow::mesh::Box;
using gridflow::mesh::Decomposition;
using gridflow::mesh::Field;
using gridflow::mesh::Index;
using gridflow::mesh::MemorySpace;

double tag(Index i, Index j, Index k) { return static_cast<double>(i + 100 * j + 10000 * k); }

// Slabs of `whole` along `axis`, handed to the ranks in reverse order.
std::vector<Box<3>> reversed_slabs(const Box<3>& whole, int axis, int ranks) {
  std::vector<Box<3>> boxes(static_cast<std::size_t>(ranks), whole);
  for (int r = 0; r < ranks; ++r) {
    const auto range = gridflow::mesh::split_range(whole.extent(axis), ranks, ranks - 1 - r);
    boxes[r].lo[axis] = whole.lo[axis] + range[0];
    boxes[r].hi[axis] = whole.lo[axis] + range[1];
  }
  return boxes;
}

}  // namespace

TEST(BoxRedistributionMpi, OwnedBoxesToSlabsAndBack) {
  gridflow::mesh::Grid<3> grid;
  grid.n = {8, 3, 6};  // 4 y-points: with more ranks, some slabs are empty
  grid.length = {1, 1, 1};
  const Decomposition<3> d(grid, MPI_COMM_WORLD);
  const int ranks = d.size(), me = d.rank();
  std::vector<Box<3>> owned(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) owned[r] = d.owned_by(r);
  const auto interior = grid.interior();
  const auto slabs = reversed_slabs(interior, 1, ranks);  // covers the interior only

  Field<double, 3> src(d.owned(), 1, MemorySpace::host, "src");
  const auto o = d.owned();
  for (auto k = o.lo[2]; k <= o.hi[2]; ++k)
    for (auto j = o.lo[1]; j <= o.hi[1]; ++j)
      for (auto i = o.lo[0]; i <= o.hi[0]; ++i) src(i, j, k) = tag(i, j, k);

  gridflow::halo::BoxRedistribution<double> to_slabs(d.comm(), owned, slabs, MemorySpace::host, nullptr);
  std::unique_ptr<Field<double, 3>> slab;
  if (!slabs[me].empty()) slab = std::make_unique<Field<double, 3>>(slabs[me], 1, MemorySpace::host, "slab");
  to_slabs.apply(&src, slab.get());
  if (slab) {
    const auto s = slabs[me];
    for (auto k = s.lo[2]; k <= s.hi[2]; ++k)
      for (auto j = s.lo[1]; j <= s.hi[1]; ++j)
        for (auto i = s.lo[0]; i <= s.hi[0]; ++i) ASSERT_EQ((*slab)(i, j, k), tag(i, j, k)) << i << " " << j << " " << k;
    EXPECT_EQ((*slab)(s.lo[0] - 1, s.lo[1], s.lo[2]), 0.0) << "a ghost was written";
  }

  // Back, into a field whose boundary points must keep their values: the slabs hold none.
  Field<double, 3> back(d.owned(), 1, MemorySpace::host, "back");
  const auto g = back.ghosted();
  for (auto k = g.lo[2]; k <= g.hi[2]; ++k)
    for (auto j = g.lo[1]; j <= g.hi[1]; ++j)
      for (auto i = g.lo[0]; i <= g.hi[0]; ++i) back(i, j, k) = -1;
  gridflow::halo::BoxRedistribution<double> to_owned(d.comm(), slabs, owned, MemorySpace::host, nullptr);
  to_owned.apply(slab.get(), &back);
  for (auto k = g.lo[2]; k <= g.hi[2]; ++k)
    for (auto j = g.lo[1]; j <= g.hi[1]; ++j)
      for (auto i = g.lo[0]; i <= g.hi[0]; ++i) {
        const bool moved = o.contains(Box<3>{{i, j, k}, {i, j, k}}) && interior.contains(Box<3>{{i, j, k}, {i, j, k}});
        ASSERT_EQ(back(i, j, k), moved ? tag(i, j, k) : -1.0) << i << " " << j << " " << k;
      }
}

TEST(DistributedSineTransformMpi, OneSineModeIsOneCoefficient) {
  gridflow::mesh::Grid<3> grid;
  grid.n = {12, 10, 14};
  grid.length = {1, 1, 1};
  const std::array<Index, 3> mode{3, 7, 2};
  const int size = gridflow::testing::world_size();
  for (const std::array<int, 3> dims : {std::array<int, 3>{0, 0, 0}, {size, 1, 1}, {1, 1, size}}) {
    const Decomposition<3> d(grid, MPI_COMM_WORLD, dims);
    gridflow::transform::DistributedSineTransform<double> transform(d, MemorySpace::host, nullptr);
    const auto box = transform.owned_interior();
    auto sine = [&](Index i, Index j, Index k) {
      return std::sin(M_PI * mode[0] * i / grid.n[0]) * std::sin(M_PI * mode[1] * j / grid.n[1]) *
             std::sin(M_PI * mode[2] * k / grid.n[2]);
    };
    Field<double, 3> u(d.owned(), 1, MemorySpace::host, "u");
    for (auto k = box.lo[2]; k <= box.hi[2]; ++k)
      for (auto j = box.lo[1]; j <= box.hi[1]; ++j)
        for (auto i = box.lo[0]; i <= box.hi[0]; ++i) u(i, j, k) = sine(i, j, k);
    transform.forward(&u);
    const double volume = grid.n[0] * grid.n[1] * grid.n[2] / 8.0;
    if (auto* c = transform.coefficients()) {
      const auto cb = transform.coefficient_box();
      for (auto k = cb.lo[2]; k <= cb.hi[2]; ++k)
        for (auto j = cb.lo[1]; j <= cb.hi[1]; ++j)
          for (auto i = cb.lo[0]; i <= cb.hi[0]; ++i) {
            const double expect = (i == mode[0] && j == mode[1] && k == mode[2]) ? volume : 0.0;
            ASSERT_NEAR((*c)(i, j, k), expect, 1e-12 * volume) << i << " " << j << " " << k;
          }
    }
    transform.inverse(u);
    for (auto k = box.lo[2]; k <= box.hi[2]; ++k)
      for (auto j = box.lo[1]; j <= box.hi[1]; ++j)
        for (auto i = box.lo[0]; i <= box.hi[0]; ++i) ASSERT_NEAR(u(i, j, k) / volume, sine(i, j, k), 1e-13);
  }
}
