// The tiled CUDA variant's block phases (kernels/filter/tiled_block.hpp) run on the host, thread
// after thread with a barrier between phases as the kernel has them, against the host reference:
// bit for bit, for every separable filter case and mode, tiles that divide the array and tiles
// that do not, 1 to 4 outputs per thread. Shared memory starts as NaN, so a phase that reads a
// value no earlier phase wrote shows. This checks the tiling on machines without a GPU; the GPU
// suite runs the kernel itself.
#include <gtest/gtest.h>

#include <limits>

#include "filter_test_cases.hpp"
#include "kernels/filter/filter_passes.hpp"
#include "kernels/filter/tiled_block.hpp"
#include "typed_cases.hpp"

using namespace gridflow;
using namespace gridflow::kernels::filter;
namespace ft = gridflow::testing;

namespace {
template <class C>
class FilterTiledBlock : public ::testing::Test {};
TYPED_TEST_SUITE(FilterTiledBlock, gridflow::testing::PrecisionDimCases);

template <class T, int Dim, int C, int K>
void run_blocks_on_host(const TiledArgs<T, Dim>& a, int threads) {
  const std::array<int, 3> tile{a.tile[0], a.tile[1], a.tile[2]}, length{a.w.length[0], a.w.length[1], a.w.length[2]};
  std::vector<T> shared(tiled_shared_bytes<Dim>(tile, length, sizeof(T)) / sizeof(T));
  for (long long bz = 0; bz < a.blocks[2]; ++bz)
    for (long long by = 0; by < a.blocks[1]; ++by)
      for (long long bx = 0; bx < a.blocks[0]; ++bx) {
        const long long block[3] = {bx, by, bz};
        const TileFrame<T, Dim> f(a, block);
        std::fill(shared.begin(), shared.end(), std::numeric_limits<T>::quiet_NaN());
        T* s0 = shared.data();
        T* s1 = s0 + f.e[0] * f.e[1] * f.e[2];
        for (int tid = 0; tid < threads; ++tid) load_tile<T, Dim, K>(a, f, s0, tid, threads);
        for (int tid = 0; tid < threads; ++tid) x_pass<T, Dim, C, K>(a, f, s0, s1, tid, threads);
        for (int tid = 0; tid < threads; ++tid) y_pass<T, Dim, C, K>(a, f, s1, s0, tid, threads);
        for (int tid = 0; tid < threads; ++tid) z_pass<T, Dim, C, K>(a, f, s0, tid, threads);
      }
}

template <class T, int Dim, int K>
void run_cells_on_host(const TiledArgs<T, Dim>& a, const FilterTunables& t) {
  switch (t.cells) {
    case 1: run_blocks_on_host<T, Dim, 1, K>(a, t.threads); break;
    case 2: run_blocks_on_host<T, Dim, 2, K>(a, t.threads); break;
    case 4: run_blocks_on_host<T, Dim, 4, K>(a, t.threads); break;
  }
}

/// As the kernel dispatches: the unrolled variant's length, or 0 for the first tiled kernel.
template <class T, int Dim>
void run_cells_on_host(const TiledArgs<T, Dim>& a, const FilterTunables& t) {
  if (!t.unrolled) return run_cells_on_host<T, Dim, 0>(a, t);
  switch (unrolled_length({a.w.length[0], a.w.length[1], a.w.length[2]})) {
    case 3: return run_cells_on_host<T, Dim, 3>(a, t);
    case 5: return run_cells_on_host<T, Dim, 5>(a, t);
    case 9: return run_cells_on_host<T, Dim, 9>(a, t);
    case 33: return run_cells_on_host<T, Dim, 33>(a, t);
    default: return run_cells_on_host<T, Dim, 1>(a, t);
  }
}

template <class T, int Dim>
void expect_tiled_equals_host(const mesh::Field<T, Dim>& in, const mesh::Box<Dim>& update, const mesh::Box<Dim>& global,
                              const FilterWeights<Dim>& w, const Boundary& b) {
  mesh::Field<T, Dim> want(in.owned(), 0, mesh::MemorySpace::host), got(in.owned(), 0, mesh::MemorySpace::host);
  FilterPlan<T, Dim>(w, b, global).apply(in, want, update, nullptr);
  const FilterTunables shapes[] = {{FilterVariant::tiled, 256, 64, 16, 8, true, 2}, {FilterVariant::tiled, 64, 7, 5, 3, true, 4},
                                   {FilterVariant::tiled, 32, 1, 1, 1, true, 1},     {FilterVariant::tiled, 96, 33, 3, 2, true, 2},
                                   {FilterVariant::tiled, 128, 256, 64, 64, true, 4},
                                   {FilterVariant::tiled, 256, 64, 16, 8, true, 4, true},
                                   {FilterVariant::tiled, 64, 7, 5, 3, true, 2, true},
                                   {FilterVariant::tiled, 96, 33, 3, 2, true, 1, true}};
  for (const auto& t : shapes) {
    const auto a = tiled_args<T, Dim>(t, in.view(), got.view(), update, w.axis, extension_of(global, b.mode), static_cast<T>(b.cval));
    run_cells_on_host<T, Dim>(a, t);
    const auto differ = ft::bit_difference(got, want, update);
    EXPECT_EQ(differ.count, 0u) << t << ", " << ft::describe<Dim>(w, b) << ", update " << update << ":" << differ.first;
  }
}
}  // namespace

TYPED_TEST(FilterTiledBlock, BlocksRunOnTheHostEqualTheReferenceBitwise) {
  using T = typename TypeParam::value_type;
  constexpr int Dim = TypeParam::dim;
  // Several blocks per axis for every tile shape; smaller in 3D, where one-point tiles reload
  // their whole halo per output.
  const ft::Dense input = ft::random_dense(Dim == 3 ? std::array<long, 3>{23, 17, 12} : std::array<long, 3>{37, 29, 1}, 7);
  const auto global = ft::box_of<Dim>(input.n);
  mesh::Field<T, Dim> in(global, 0, mesh::MemorySpace::host);
  ft::put(input, in, ft::origin<Dim>());
  for (const auto& w : ft::filter_cases<Dim>())
    if (w.separable)
      for (const auto& b : ft::boundary_cases()) expect_tiled_equals_host<T, Dim>(in, global, global, w, b);
}

TYPED_TEST(FilterTiledBlock, ADecomposedPieceAndRadiusThirtyTwo) {
  using T = typename TypeParam::value_type;
  constexpr int Dim = TypeParam::dim;
  const std::array<long, 3> n{40, 34, Dim == 3 ? 12 : 1};
  const auto global = ft::box_of<Dim>(n);
  mesh::Box<Dim> piece = global;
  for (int d = 0; d < Dim; ++d) piece.lo[d] = n[d] / 3;
  std::array<std::vector<double>, Dim> axes;
  for (int d = 0; d < Dim; ++d) axes[d] = ft::random_weights(d == 0 ? 65 : 64 - 30 * d, 50u + d);  // radius 32 along x
  const auto w = separable_weights<Dim>(axes);
  for (const auto& b : ft::boundary_cases()) {
    if (b.mode == BoundaryMode::wrap) continue;  // the far end of the array is not this piece's
    const int reach = FilterPlan<T, Dim>(w, b, global).reach();
    mesh::Field<T, Dim> in(piece, reach, mesh::MemorySpace::host);
    const auto g = in.ghosted();
    const ft::Dense values = ft::random_dense({g.extent(0), g.extent(1), Dim == 3 ? g.extent(Dim - 1) : 1}, 9);
    ft::put(values, in, {g.lo[0], g.lo[1], Dim == 3 ? g.lo[Dim - 1] : 0});
    expect_tiled_equals_host<T, Dim>(in, piece, global, w, b);
  }
}
