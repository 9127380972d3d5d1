#pragma once
// What the FFT variant's tests share on the host and the device: its tunables, the largest
// difference between two fields, and pieces of an array filtered apart (as ranks would, each
// holding only what it reads, NaN beyond) against the whole array, bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "filter_test_cases.hpp"
#include "kernels/filter/correlate.hpp"
#include "mesh/device.hpp"

namespace gridflow::testing {

inline kernels::filter::FilterTunables fft_tunables(long long tile, bool flow_graph = false) {
  kernels::filter::FilterTunables t;
  t.variant = kernels::filter::FilterVariant::fft;
  t.fft_tile = tile;
  t.fft_flow_graph = flow_graph;
  return t;
}

/// max |a(p) - b(p + shift e_0)| over the points of `box` where p + shift lies in it (host fields).
template <class T, int Dim>
double max_difference(const mesh::Field<T, Dim>& a, const mesh::Field<T, Dim>& b, const mesh::Box<Dim>& box, int shift = 0) {
  double worst = 0;
  const long nz = Dim == 3 ? box.extent(Dim - 1) : 1;
  for (long c = 0; c < nz; ++c)
    for (auto j = box.lo[1]; j <= box.hi[1]; ++j)
      for (auto i = box.lo[0]; i + shift <= box.hi[0]; ++i) {
        double x, y;
        if constexpr (Dim == 2) x = a(i, j), y = b(i + shift, j);
        else x = a(i, j, box.lo[2] + c), y = b(i + shift, j, box.lo[2] + c);
        const double d = std::abs(x - y);
        if (!(d <= worst)) worst = d;
      }
  return worst;
}

/// For every filter case and mode but wrap (a decomposed wrap filter runs direct): the FFT
/// variant with `tile` in `space` on pieces of a 47 x 29 (x 21 x 17) array cut unevenly along
/// every axis, one plan for the whole array and every piece, equals the whole array bitwise.
template <class T, int Dim>
void expect_fft_pieces_equal_whole(mesh::MemorySpace space, StreamHandle stream, long long tile, bool flow_graph = false) {
  using namespace kernels::filter;
  const Dense input = random_dense({47, Dim == 3 ? 21 : 29, Dim == 3 ? 17 : 1}, 10);
  const auto global = box_of<Dim>(input.n);
  mesh::Field<T, Dim> whole_in(global, 0, mesh::MemorySpace::host);
  put(input, whole_in, origin<Dim>());
  std::vector<mesh::Box<Dim>> pieces{global};
  for (int d = 0; d < Dim; ++d) {
    std::vector<mesh::Box<Dim>> next;
    for (auto p : pieces) {
      auto a = p, c = p;
      a.hi[d] = p.lo[d] + p.extent(d) / 3;
      c.lo[d] = a.hi[d] + 1;
      next.push_back(a);
      next.push_back(c);
    }
    pieces = next;
  }
  // `f` (host) copied to `space` and back around one apply.
  auto apply = [&](FilterPlan<T, Dim>& plan, const mesh::Field<T, Dim>& in, mesh::Field<T, Dim>& out, const mesh::Box<Dim>& box) {
    if (space == mesh::MemorySpace::host) return plan.apply(in, out, box, nullptr);
    mesh::Field<T, Dim> d_in(in.owned(), in.ghost_width(), space), d_out(out.owned(), out.ghost_width(), space);
    d_in.copy_from(in);
    plan.apply(d_in, d_out, box, stream);
    out.copy_from(d_out);
  };
  for (const auto& w : filter_cases<Dim>())
    for (const auto& b : boundary_cases()) {
      if (b.mode == BoundaryMode::wrap) continue;
      FilterPlan<T, Dim> plan(w, b, global, fft_tunables(tile, flow_graph));
      mesh::Field<T, Dim> whole_out(global, 0, mesh::MemorySpace::host);
      apply(plan, whole_in, whole_out, global);
      for (const auto& piece : pieces) {
        mesh::Field<T, Dim> in(piece, plan.reach(), mesh::MemorySpace::host), out(piece, 0, mesh::MemorySpace::host);
        T* all = in.allocation();
        for (std::size_t q = 0; q < in.allocated_elements(); ++q) all[q] = std::numeric_limits<T>::quiet_NaN();
        const auto reads = plan.read_box(piece);
        ASSERT_TRUE(in.ghosted().contains(reads)) << reads << " outside " << in.ghosted();
        const long nz = Dim == 3 ? reads.extent(Dim - 1) : 1;
        for (long c = 0; c < nz; ++c)
          for (auto j = reads.lo[1]; j <= reads.hi[1]; ++j)
            for (auto i = reads.lo[0]; i <= reads.hi[0]; ++i) {
              if constexpr (Dim == 2) in(i, j) = whole_in(i, j);
              else in(i, j, reads.lo[2] + c) = whole_in(i, j, reads.lo[2] + c);
            }
        apply(plan, in, out, piece);
        const auto differ = bit_difference(out, whole_out, piece);
        EXPECT_EQ(differ.count, 0u) << describe<Dim>(w, b) << ", tile " << tile << " (ran " << plan.path() << ") on piece " << piece
                                    << ":" << differ.first;
      }
    }
}

}  // namespace gridflow::testing
