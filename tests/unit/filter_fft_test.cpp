// The FFT variant of the convolution filters on the host: within its rounding bound of the direct
// reference for every filter case and mode (separable and full weights, even lengths, radius 32),
// on arrays smaller than a tile, of one tile and of many with a partial last tile; a result
// shifted by one point is far outside that bound; pieces of the array filtered apart (as ranks
// would) equal the whole array bit for bit; the tiling's arithmetic and the tunables.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <sstream>

#include "filter_fft_test_support.hpp"
#include "filter_test_cases.hpp"
#include "kernels/filter/fft_correlate.hpp"
#include "kernels/filter/filter_search_space.hpp"
#include "typed_cases.hpp"

using namespace gridflow;
using namespace gridflow::kernels::filter;
namespace ft = gridflow::testing;
using ft::Dense;

namespace {

using ft::fft_tunables;
using ft::max_difference;

template <class C>
class FilterFft : public ::testing::Test {};
TYPED_TEST_SUITE(FilterFft, gridflow::testing::PrecisionDimCases);

/// The filter of `input` (whole array) with `tunables`, on the host.
template <class T, int Dim>
mesh::Field<T, Dim> filtered(const Dense& input, const FilterWeights<Dim>& w, const Boundary& b, const FilterTunables& tunables,
                             std::string* path = nullptr) {
  const auto global = ft::box_of<Dim>(input.n);
  mesh::Field<T, Dim> in(global, 0, mesh::MemorySpace::host), out(global, 0, mesh::MemorySpace::host);
  ft::put(input, in, ft::origin<Dim>());
  FilterPlan<T, Dim> plan(w, b, global, tunables);
  plan.apply(in, out, global, nullptr);
  if (path) *path = plan.path();
  return out;
}

template <class T, int Dim>
void expect_fft_within_bound(const Dense& input, const FilterWeights<Dim>& w, const Boundary& b, long long tile) {
  const auto global = ft::box_of<Dim>(input.n);
  const auto direct = filtered<T, Dim>(input, w, b, FilterTunables::defaults_for(Dim));
  std::string path;
  const auto fft = filtered<T, Dim>(input, w, b, fft_tunables(tile), &path);
  EXPECT_EQ(path, "fft fftw");
  long long longest = 0;
  for (int d = 0; d < Dim; ++d) longest = std::max<long long>(longest, power_of_two_at_least(input.n[d] + w.length(d)));
  const double bound = fft_error_bound<T, Dim>(w, longest, std::max(1.0, std::abs(b.cval)));
  const double error = max_difference(fft, direct, global);
  EXPECT_LE(error, bound) << ft::describe<Dim>(w, b) << ", tile " << tile << " on " << global;
}

template <int Dim>
std::vector<FilterWeights<Dim>> large_cases() {
  std::vector<FilterWeights<Dim>> cases;
  std::array<double, Dim> sigma{};
  for (int d = 0; d < Dim; ++d) sigma[d] = d == 0 ? 8.0 : 1.5;  // radius 32 along x
  cases.push_back(gaussian_filter<Dim>(sigma));
  std::array<int, Dim> shape = ft::per_axis<Dim>({9, 8, 3});  // full, an even axis
  int count = 1;
  for (int s : shape) count *= s;
  cases.push_back(full_weights<Dim>(shape, ft::random_weights(count, 33u)));
  return cases;
}

}  // namespace

TYPED_TEST(FilterFft, EqualsTheDirectFilterWithinItsBoundOnArraysOfFewAndManyTiles) {
  using T = typename TypeParam::value_type;
  constexpr int Dim = TypeParam::dim;
  // 13 x 12 (x 11): one tile at the default size; tile 5: many, the last one partial.
  const Dense small = ft::random_dense({13, 12, Dim == 3 ? 11 : 1}, 7);
  for (const auto& w : ft::filter_cases<Dim>())
    for (const auto& b : ft::boundary_cases())
      for (long long tile : {0LL, 5LL}) expect_fft_within_bound<T, Dim>(small, w, b, tile);
  const Dense large = ft::random_dense({70, Dim == 3 ? 36 : 45, Dim == 3 ? 34 : 1}, 8);
  for (const auto& w : large_cases<Dim>())
    for (const auto& b : ft::boundary_cases())
      for (long long tile : {0LL, 17LL}) expect_fft_within_bound<T, Dim>(large, w, b, tile);
}

TYPED_TEST(FilterFft, AResultShiftedByOnePointIsFarOutsideTheBound) {
  using T = typename TypeParam::value_type;
  constexpr int Dim = TypeParam::dim;
  const Dense input = ft::random_dense({40, 21, Dim == 3 ? 19 : 1}, 9);
  const auto global = ft::box_of<Dim>(input.n);
  for (const auto& w : large_cases<Dim>()) {
    const Boundary b{BoundaryMode::nearest, 0.0};
    const auto direct = filtered<T, Dim>(input, w, b, FilterTunables::defaults_for(Dim));
    const auto fft = filtered<T, Dim>(input, w, b, fft_tunables(0));
    const double bound = fft_error_bound<T, Dim>(w, 256, 1.0);
    EXPECT_LE(max_difference(fft, direct, global), bound);
    EXPECT_GT(max_difference(fft, direct, global, 1), 100 * bound) << ft::describe<Dim>(w, b);
  }
}

TYPED_TEST(FilterFft, PiecesFilteredApartEqualTheWholeArrayBitwise) {
  using T = typename TypeParam::value_type;
  constexpr int Dim = TypeParam::dim;
  ft::expect_fft_pieces_equal_whole<T, Dim>(mesh::MemorySpace::host, nullptr, 0);
  ft::expect_fft_pieces_equal_whole<T, Dim>(mesh::MemorySpace::host, nullptr, 6);
}

TEST(FilterFftTiling, DefaultTilesLeaveThreeQuartersOfEachTransformToOutputs) {
  const mesh::Box<2> global{{0, 0}, {999, 9}};
  auto t = make_fft_tiling<2>({9, 1}, global, 0);  // 8 reach: L = 32, 24 outputs
  EXPECT_EQ(t.transformed, 1);
  EXPECT_EQ(t.axis[0], 0);
  EXPECT_EQ(t.length[0], 32);
  EXPECT_EQ(t.tile[0], 24);
  EXPECT_EQ(t.length[1], 1);
  t = make_fft_tiling<2>({65, 3}, global, 0);  // 64 reach: L = 256, 192 outputs; y: shorter than a tile
  EXPECT_EQ(t.transformed, 2);
  EXPECT_EQ(t.length[0], 256);
  EXPECT_EQ(t.tile[0], 192);
  EXPECT_EQ(t.tile[1], 10);  // the axis's 10 points
  EXPECT_EQ(t.length[1], 16);
  t = make_fft_tiling<2>({5, 5}, global, 40);  // asked: 40 outputs, 44 points: L = 64
  EXPECT_EQ(t.tile[0], 40);
  EXPECT_EQ(t.length[0], 64);
  t = make_fft_tiling<2>({1, 1}, global, 0);  // nothing to transform: x, so that there is one axis
  EXPECT_EQ(t.transformed, 1);
  EXPECT_GE(t.length[0], 2);
}

TEST(FilterFftTiling, TheCoverOfABoxIsTheWholeTilesItMeetsClippedToTheArray) {
  const mesh::Box<2> global{{-3, 0}, {96, 49}};
  const auto t = make_fft_tiling<2>({5, 1}, global, 10);  // tiles start at -3, 7, 17, ..., 87 (the last: 87..96)
  const auto c = tile_cover(t, mesh::Box<2>{{8, 4}, {90, 7}});
  EXPECT_EQ(c.lo[0], 7);
  EXPECT_EQ(c.hi[0], 96);
  EXPECT_EQ(c.lo[1], 4);  // y is not transformed
  EXPECT_EQ(c.hi[1], 7);
}

TEST(FilterFftTunables, ReachAndReadsGrowWithTheTileAndTheTunablesPrintThem) {
  const mesh::Box<2> global{{0, 0}, {199, 99}};
  FilterPlan<double, 2> plan(mean_filter<2>({5, 3}), Boundary{BoundaryMode::constant, 0.0}, global);
  EXPECT_EQ(plan.reach(), 2);
  const mesh::Box<2> update{{50, 50}, {60, 60}};
  EXPECT_EQ(plan.read_box(update), (mesh::Box<2>{{48, 49}, {62, 61}}));
  plan.set_tunables(fft_tunables(10));
  EXPECT_EQ(plan.reach(), 2 + 9);
  EXPECT_EQ(plan.read_box(update), (mesh::Box<2>{{48, 49}, {71, 70}}));  // tiles 50..59, 60..69 along x and y
  EXPECT_TRUE(fft_tunables(0).valid());
  EXPECT_FALSE(fft_tunables(-1).valid());
  std::ostringstream os;
  FilterTunables t = fft_tunables(48);
  t.fft_flow_graph = true;
  os << t << ' ' << fft_tunables(0);
  EXPECT_EQ(os.str(), "filter_cuda(fft,tile=48,flow_graph) filter_cuda(fft,tile=default)");
  for (mesh::MemorySpace space : {mesh::MemorySpace::host, mesh::MemorySpace::device}) {
    const auto c = filter_fft_candidates(2, space);
    ASSERT_FALSE(c.empty());
    EXPECT_EQ(c[0].fft_tile, 0);
    EXPECT_FALSE(c[0].fft_flow_graph);
    for (const auto& x : c) EXPECT_TRUE(x.valid());
  }
}
