#pragma once
// The in-situ filter on a field decomposed over MPI_COMM_WORLD against the filter of the whole
// array on one rank: every filter case and boundary mode (filter_test_cases.hpp), shared by the
// multi-rank tests (host fields) and the GPU tests (device fields). The source field's ghosts
// hold NaN, as stale ghosts might: a filter reading them instead of its own exchange would show.
#include <gtest/gtest.h>
#include <mpi.h>

#include <limits>

#include "app/output/insitu_filter.hpp"
#include "autotune/filter_tuning.hpp"
#include "filter_test_cases.hpp"
#include "mesh/decomposition.hpp"
#include "typed_cases.hpp"

namespace gridflow::testing {

/// 13 x 12 (x 11) points: every filter case fits, and at 6 ranks some parts are 2 points wide,
/// narrower than the widest reach (5), so ghosts come from ranks two steps away.
template <int Dim>
mesh::Grid<Dim> insitu_test_grid() {
  mesh::Grid<Dim> g;
  for (int d = 0; d < Dim; ++d) {
    g.n[d] = 12 - d;
    g.length[d] = 1.0;
  }
  return g;
}

/// This rank's part of `input` in a field of `space` with ghost width 1 (as a solver's), NaN in the ghosts.
template <class T, int Dim>
mesh::Field<T, Dim> decomposed_source(const mesh::Decomposition<Dim>& d, const Dense& input, mesh::MemorySpace space) {
  mesh::Field<T, Dim> host(d.owned(), 1, mesh::MemorySpace::host, "u");
  T* all = host.allocation();
  for (std::size_t q = 0; q < host.allocated_elements(); ++q) all[q] = std::numeric_limits<T>::quiet_NaN();
  const Dense whole_part = [&] {
    std::array<long, 3> n{1, 1, 1};
    for (int dim = 0; dim < Dim; ++dim) n[dim] = d.owned().extent(dim);
    Dense part(n);
    for (long k = 0; k < n[2]; ++k)
      for (long j = 0; j < n[1]; ++j)
        for (long i = 0; i < n[0]; ++i)
          part.at(i, j, k) = input.at(d.owned().lo[0] + i, d.owned().lo[1] + j, Dim == 3 ? d.owned().lo[Dim - 1] + k : 0);
    return part;
  }();
  std::array<mesh::Index, 3> lo{};
  for (int dim = 0; dim < Dim; ++dim) lo[dim] = d.owned().lo[dim];
  put(whole_part, host, lo);
  if (space == mesh::MemorySpace::host) return host;
  mesh::Field<T, Dim> device(d.owned(), 1, space, "u");
  device.copy_from(host);
  return device;
}

/// A grid with one long axis (x: 31 points) and short ones (4 and 5 points), and a mean filter
/// whose radius along x (10) exceeds the short axes' extents: the periodic ghosts of wrap differ
/// per axis.
template <int Dim>
mesh::Grid<Dim> short_axis_grid() {
  mesh::Grid<Dim> g;
  for (int d = 0; d < Dim; ++d) {
    g.n[d] = d == 0 ? 30 : 2 + d;
    g.length[d] = 1.0;
  }
  return g;
}
template <int Dim>
std::vector<kernels::filter::FilterWeights<Dim>> short_axis_cases() {
  return {kernels::filter::mean_filter<Dim>(per_axis<Dim>({21, 3, 4}))};
}

/// A grid of several default FFT tiles per axis for the filter cases' lengths (79 x 58, or 35 x 30 x 25
/// points), so that tiles straddle rank boundaries.
template <int Dim>
mesh::Grid<Dim> insitu_fft_test_grid() {
  mesh::Grid<Dim> g;
  for (int d = 0; d < Dim; ++d) {
    g.n[d] = Dim == 2 ? 78 - 21 * d : 34 - 5 * d;
    g.length[d] = 1.0;
  }
  return g;
}

/// For every filter case and mode: the in-situ filter of the decomposed field in `space` equals
/// the host filter of the whole array bitwise on this rank's points, twice in a row (the second
/// apply reuses the exchanges), and leaves the source field as it was. With method fft the
/// whole-array filter is the FFT variant with its default tunables, and mode wrap is left out.
template <class T, int Dim>
void expect_insitu_equals_whole_array(mesh::MemorySpace space, StreamHandle stream, const mesh::Grid<Dim>& grid = insitu_test_grid<Dim>(),
                                      const std::vector<kernels::filter::FilterWeights<Dim>>& cases = filter_cases<Dim>(),
                                      autotune::FilterMethod method = autotune::FilterMethod::direct) {
  const mesh::Decomposition<Dim> d(grid, MPI_COMM_WORLD);
  const mesh::Box<Dim> global = grid.points();
  const Dense input = random_dense({grid.n[0] + 1, grid.n[1] + 1, Dim == 3 ? grid.n[Dim - 1] + 1 : 1}, 11);
  mesh::Field<T, Dim> whole_in(global, 0, mesh::MemorySpace::host, "whole"), whole_out(global, 0, mesh::MemorySpace::host, "want");
  put(input, whole_in, origin<Dim>());
  const mesh::Field<T, Dim> source = decomposed_source<T, Dim>(d, input, space);
  mesh::Field<T, Dim> before(source.owned(), source.ghost_width(), mesh::MemorySpace::host);
  mesh::Field<T, Dim> after(source.owned(), source.ghost_width(), mesh::MemorySpace::host);
  before.copy_from(source);
  for (const auto& w : cases)
    for (const auto& b : boundary_cases()) {
      if (method == autotune::FilterMethod::fft && b.mode == kernels::filter::BoundaryMode::wrap) continue;
      const auto tunables = method == autotune::FilterMethod::fft
                                ? autotune::filter_tuning_candidates<Dim>(w, Dim, mesh::MemorySpace::host, method).at(0)
                                : kernels::filter::FilterTunables::defaults_for(Dim);
      kernels::filter::FilterPlan<T, Dim>(w, b, global, tunables).apply(whole_in, whole_out, global, nullptr);
      autotune::TuningOptions tuning;
      tuning.mode = autotune::TuningMode::off;
      app::InsituFilter<T, Dim> filter(d, {"test", "u", "u_test", w, b, method, {}}, stream, tuning);
      for (int round = 0; round < 2; ++round) {
        const mesh::Field<T, Dim>& got = filter.apply(source);
        ASSERT_EQ(got.space(), mesh::MemorySpace::host);
        if (method == autotune::FilterMethod::fft) {
          EXPECT_NE(std::string(filter.path(space)).find("fft"), std::string::npos);
        }
        const auto differ = bit_difference(got, whole_out, d.owned());
        EXPECT_EQ(differ.count, 0u) << describe<Dim>(w, b) << ", round " << round << ", rank " << d.rank() << " of " << d.size()
                                    << ", owned " << d.owned() << ":" << differ.first;
      }
    }
  after.copy_from(source);
  EXPECT_EQ(bit_difference(after, before, before.ghosted()).count, 0u) << "the filters changed the field they read";
}

}  // namespace gridflow::testing
