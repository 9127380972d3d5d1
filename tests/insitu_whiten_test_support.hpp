#pragma once
// The in-situ whitening filter on a frame series decomposed over MPI_COMM_WORLD against the
// Whitener on whole frames on one rank (host memory, the reference): a small star field
// (whiten_test_support.hpp), one frame per output, shared by the multi-rank tests (host fields:
// bitwise) and the GPU tests (device fields: the CUDA whitening sums with atomics, so to rounding).
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "app/output/insitu_whiten.hpp"
#include "mesh/decomposition.hpp"
#include "typed_cases.hpp"
#include "whiten_test_support.hpp"

namespace gridflow::testing {

/// Largest |got - want| over this rank's owned points, against the whole-frame reference.
template <class T>
double worst_difference(const mesh::Field<T, 2>& got, const mesh::Field<T, 2>& want, const mesh::Box<2>& owned, std::size_t& differ) {
  double worst = 0;
  for (auto j = owned.lo[1]; j <= owned.hi[1]; ++j)
    for (auto i = owned.lo[0]; i <= owned.hi[0]; ++i) {
      differ += !same_bits(got(i, j), want(i, j));
      worst = std::max(worst, std::fabs(static_cast<double>(got(i, j)) - static_cast<double>(want(i, j))));
    }
  return worst;
}

/// Six frames of a 41 x 31 star field through InsituWhiten (memory 3) with fields in `space`,
/// each output against the host Whitener on the whole frame: bitwise when `bitwise`, else within
/// `tolerance` times the largest frame value.
template <class T>
void expect_insitu_whiten_equals_whole_frames(mesh::MemorySpace space, StreamHandle stream, bool bitwise, double tolerance) {
  mesh::Grid<2> grid;
  grid.n = {40, 30};
  grid.length = {1.0, 1.0};
  const mesh::Decomposition<2> d(grid, MPI_COMM_WORLD);
  StarFieldSpec spec;
  spec.nx = 41;
  spec.ny = 31;
  spec.frames = 6;
  spec.stars = 8;
  const StarField sky = make_star_field(spec);
  app::FilterBlock<2> block;
  block.kind = "whiten";
  block.field = "u";
  block.name = "u_whiten";
  block.whiten.memory = 3;
  app::InsituWhiten<T> insitu(d, block, stream);
  kernels::filter::Whitener<T> reference(spec.ny, spec.nx, block.whiten, mesh::MemorySpace::host);
  const mesh::Box<2> whole = grid.points();
  mesh::Field<T, 2> frame(whole, 0, mesh::MemorySpace::host), want(whole, 0, mesh::MemorySpace::host);
  mesh::Field<T, 2> part(d.owned(), 1, mesh::MemorySpace::host, "u"), part_in_space(d.owned(), 1, space, "u");
  double scale = 0;
  for (int t = 0; t < spec.frames; ++t) {
    for (auto j = whole.lo[1]; j <= whole.hi[1]; ++j)
      for (auto i = whole.lo[0]; i <= whole.hi[0]; ++i) {
        frame(i, j) = static_cast<T>(sky.frames[t][j * spec.nx + i]);
        scale = std::max(scale, std::fabs(static_cast<double>(frame(i, j))));
      }
    reference.push(frame, want, nullptr);
    T* all = part.allocation();
    for (std::size_t q = 0; q < part.allocated_elements(); ++q) all[q] = std::numeric_limits<T>::quiet_NaN();  // ghosts unread
    for (auto j = d.owned().lo[1]; j <= d.owned().hi[1]; ++j)
      for (auto i = d.owned().lo[0]; i <= d.owned().hi[0]; ++i) part(i, j) = frame(i, j);
    part_in_space.copy_from(part);
    const mesh::Field<T, 2>& got = insitu.apply(part_in_space);
    ASSERT_EQ(got.space(), mesh::MemorySpace::host);
    std::size_t differ = 0;
    const double worst = worst_difference(got, want, d.owned(), differ);
    if (bitwise) EXPECT_EQ(differ, 0u) << "frame " << t << ", rank " << d.rank() << " of " << d.size() << ": up to " << worst;
    else EXPECT_LE(worst, tolerance * scale) << "frame " << t << ", rank " << d.rank() << " of " << d.size();
    if (!bitwise && d.rank() == 0)  // the figure the tolerance stands for, in the log
      std::printf("whiten frame %d (%s): largest |device - host| %.3e of frame values up to %.1f, %zu of rank 0's points differ\n", t,
                  sizeof(T) == 4 ? "float" : "double", worst, scale, differ);
    if (t == 0) {
      EXPECT_EQ(differ, 0u) << "frame 0 has no predecessor: written as it is";
    }
  }
  EXPECT_EQ(insitu.frames(), spec.frames);
}

}  // namespace gridflow::testing
