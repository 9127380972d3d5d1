// A filter applied piece by piece, as on a decomposed field (each piece's ghosts holding its
// neighbours' values, as a halo exchange leaves them), equals the filter of the whole array bit
// for bit, for every mode: ghosts beyond the global edges hold NaN, so reading one would show.
// wrap across pieces reads periodic ghosts when the global box is widened by the reach.
#include <gtest/gtest.h>

#include <cmath>

#include "filter_test_cases.hpp"
#include "typed_cases.hpp"

using namespace gridflow;
using namespace gridflow::kernels::filter;
namespace ft = gridflow::testing;
using ft::Dense;

namespace {
template <class C>
class FilterDecomposed : public ::testing::Test {};
TYPED_TEST_SUITE(FilterDecomposed, gridflow::testing::PrecisionDimCases);

/// The pieces of `global` cut in two along x and y (and z unless Dim == 2), uneven on purpose.
template <int Dim>
std::vector<mesh::Box<Dim>> pieces_of(const mesh::Box<Dim>& global) {
  std::vector<mesh::Box<Dim>> pieces{global};
  for (int d = 0; d < Dim; ++d) {
    std::vector<mesh::Box<Dim>> next;
    for (auto p : pieces) {
      const mesh::Index cut = p.lo[d] + p.extent(d) / 3 + 1;
      auto a = p, b = p;
      a.hi[d] = cut - 1;
      b.lo[d] = cut;
      next.push_back(a);
      next.push_back(b);
    }
    pieces = next;
  }
  return pieces;
}

/// Fills every ghosted point of `f` from `global_values` (indices taken modulo the array's
/// extents when `periodic`, else NaN outside the array).
template <class T, int Dim>
void fill_like_halo(mesh::Field<T, Dim>& f, const Dense& global_values, bool periodic) {
  const auto g = f.ghosted();
  const long nz = Dim == 3 ? g.extent(2) : 1;
  for (long c = 0; c < nz; ++c)
    for (auto j = g.lo[1]; j <= g.hi[1]; ++j)
      for (auto i = g.lo[0]; i <= g.hi[0]; ++i) {
        std::array<long, 3> p{static_cast<long>(i), static_cast<long>(j), Dim == 3 ? static_cast<long>(g.lo[Dim - 1] + c) : 0};
        bool inside = true;
        for (int d = 0; d < 3; ++d) {
          if (periodic) p[d] = ((p[d] % global_values.n[d]) + global_values.n[d]) % global_values.n[d];
          inside = inside && p[d] >= 0 && p[d] < global_values.n[d];
        }
        const T v = inside ? static_cast<T>(global_values.at(p[0], p[1], p[2])) : std::numeric_limits<T>::quiet_NaN();
        if constexpr (Dim == 2) f(i, j) = v;
        else f(i, j, p[2] * 0 + g.lo[2] + c) = v;
      }
}

template <class T, int Dim>
void expect_pieces_equal_whole(const Dense& input, const FilterWeights<Dim>& w, const Boundary& b, bool periodic_ghosts) {
  const auto global = ft::box_of<Dim>(input.n);
  mesh::Field<T, Dim> whole_in(global, 0, mesh::MemorySpace::host), whole_out(global, 0, mesh::MemorySpace::host);
  ft::put(input, whole_in, ft::origin<Dim>());
  FilterPlan<T, Dim>(w, b, global).apply(whole_in, whole_out, global, nullptr);
  for (const auto& piece : pieces_of(global)) {
    const int reach = FilterPlan<T, Dim>(w, b, global).reach();
    FilterPlan<T, Dim> plan(w, b, periodic_ghosts ? global.grow(reach) : global);
    mesh::Field<T, Dim> in(piece, plan.reach(), mesh::MemorySpace::host), out(piece, 0, mesh::MemorySpace::host);
    fill_like_halo(in, input, periodic_ghosts);
    plan.apply(in, out, piece, nullptr);
    std::size_t differ = 0;
    const long nz = Dim == 3 ? piece.extent(Dim - 1) : 1;
    for (long c = 0; c < nz; ++c)
      for (auto j = piece.lo[1]; j <= piece.hi[1]; ++j)
        for (auto i = piece.lo[0]; i <= piece.hi[0]; ++i) {
          if constexpr (Dim == 2) differ += !ft::same_bits(out(i, j), whole_out(i, j));
          else differ += !ft::same_bits(out(i, j, piece.lo[2] + c), whole_out(i, j, piece.lo[2] + c));
        }
    EXPECT_EQ(differ, 0u) << ft::describe<Dim>(w, b) << " on piece " << piece << (periodic_ghosts ? " (periodic ghosts)" : "");
  }
}
}  // namespace

TYPED_TEST(FilterDecomposed, PiecesWithGhostsEqualTheWholeArrayBitwise) {
  using T = typename TypeParam::value_type;
  constexpr int Dim = TypeParam::dim;
  const Dense input = ft::random_dense({13, 12, Dim == 3 ? 11 : 1}, 4);
  for (const auto& w : ft::filter_cases<Dim>())
    for (const auto& b : ft::boundary_cases()) {
      if (b.mode == BoundaryMode::wrap) continue;  // the far end of the array: periodic ghosts, below
      expect_pieces_equal_whole<T, Dim>(input, w, b, false);
    }
}

TYPED_TEST(FilterDecomposed, WrapAcrossPiecesReadsPeriodicGhosts) {
  using T = typename TypeParam::value_type;
  constexpr int Dim = TypeParam::dim;
  const Dense input = ft::random_dense({13, 12, Dim == 3 ? 11 : 1}, 5);
  for (const auto& w : ft::filter_cases<Dim>()) expect_pieces_equal_whole<T, Dim>(input, w, {BoundaryMode::wrap, 0.0}, true);
}
