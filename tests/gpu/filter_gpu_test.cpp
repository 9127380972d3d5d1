// The CUDA filter variants against the host reference, bit for bit: the direct variant evaluates
// the host's point functions, and the tiled one multiplies and adds the same values in the same
// order with intermediates rounded to T (both sides built without FMA contraction), so any
// difference is a bug, never rounding. Every filter case and mode, 2D and 3D, float and double,
// tiles that divide the array and tiles that do not, radius 32, and a decomposed piece.
#include <gtest/gtest.h>

#include <sstream>

#include "filter_test_cases.hpp"
#include "gpu_test_support.hpp"
#include "kernels/filter/correlate_cuda.hpp"
#include "kernels/filter/panel_block.hpp"
#include "kernels/filter/ring_block.hpp"
#include "kernels/filter/warp_block.hpp"
#include "mesh/check.hpp"
#include "mesh/device.hpp"
#include "typed_cases.hpp"

using namespace gridflow;
using namespace gridflow::kernels::filter;
namespace ft = gridflow::testing;

namespace {
template <class C>
class FilterGpu : public ::testing::Test {};
TYPED_TEST_SUITE(FilterGpu, gridflow::testing::PrecisionDimCases);

template <int Dim>
std::vector<FilterTunables> variants() {
  std::vector<FilterTunables> v;
  v.push_back({FilterVariant::direct});
  v.push_back({});  // the defaults: tiled, fused
  FilterTunables t;
  t.fused = false;
  v.push_back(t);
  v.push_back({FilterVariant::tiled, 128, 32, 4, 2, true, 1});
  v.push_back({FilterVariant::tiled, 64, 7, 5, 3, true, 4});   // tiles that do not divide the array, nor by cells
  v.push_back({FilterVariant::tiled, 1024, 128, 8, 8, true, 4});
  v.push_back({FilterVariant::tiled, 32, 1, 1, 1, true, 2});   // one output per block
  v.push_back({FilterVariant::tiled, 96, 33, 3, 2, false, 2});
  v.push_back({FilterVariant::tiled, 256, 256, 64, 64, true, 2});  // too large to fuse at radius 32: per axis
  // The unrolled kernel: rows spread over warps, lengths 3/5/9/33 compiled, per axis too.
  v.push_back({FilterVariant::tiled, 512, 128, 32, 4, true, 4, true});
  v.push_back({FilterVariant::tiled, 64, 7, 5, 3, true, 4, true});
  v.push_back({FilterVariant::tiled, 32, 1, 1, 1, true, 2, true});
  v.push_back({FilterVariant::tiled, 96, 33, 3, 2, false, 1, true});
  // Streaming: the defaults, tiles and segments that do not divide the array, one column per
  // block, deep batches, every outputs-per-thread count.
  v.push_back(FilterTunables::defaults_for(Dim));
  v.push_back({FilterVariant::streaming, 64, 7, 5, 3, true, 2, false, 4});
  v.push_back({FilterVariant::streaming, 32, 1, 1, 1, true, 1, false, 1});
  v.push_back({FilterVariant::streaming, 512, 128, 8, 8, true, 8, false, 16});
  v.push_back({FilterVariant::streaming, 96, 33, 3, 2, true, 4, false, 8});
  // Ring (defaults above): short segments, one output per block, deep stages; filters it has no
  // kernel for run the streaming defaults.
  v.push_back({FilterVariant::ring, 32, 1, Dim == 3 ? 2 : 1, 5, true, 2, false, 6});
  v.push_back({FilterVariant::ring, 64, 1, Dim == 3 ? 4 : 1, 1, true, 8, false, 32});
  // Warp lines (x alone; elsewhere the ring defaults): one warp per block, 4 pairs per thread.
  v.push_back({FilterVariant::warp, 32, 1, 1, 7, true, 2, false, 4});
  v.push_back({FilterVariant::warp, 256, 1, 1, 1, true, 4, false, 16});
  // Panels (2D, one length on both axes; elsewhere the ring defaults): segments that do not
  // divide the array nor by the step, one to three stages, walks of vectors, columns and pairs.
  v.push_back({FilterVariant::panel, 128, 1, 1, 11, true, 2, false, 2});
  v.push_back({FilterVariant::panel, 64, 1, 1, 8, true, 2, false, 1});
  v.push_back({FilterVariant::panel, 128, 1, 1, 13, true, 2, false, 3, 0, false, 1});  // one column a walk
  v.push_back({FilterVariant::panel, 64, 1, 1, 9, true, 2, false, 1, 0, false, 2});    // two
  return v;
}

/// Every variant on device copies of `in` against the host reference on `update`, bitwise.
template <class T, int Dim>
void expect_variants_equal_host(const mesh::Field<T, Dim>& in, const mesh::Box<Dim>& update, const mesh::Box<Dim>& global,
                                const FilterWeights<Dim>& w, const Boundary& b, mesh::Stream& stream) {
  mesh::Field<T, Dim> want(in.owned(), 0, mesh::MemorySpace::host, "want"), got(in.owned(), 0, mesh::MemorySpace::host, "got");
  FilterPlan<T, Dim>(w, b, global).apply(in, want, update, nullptr);
  mesh::Field<T, Dim> d_in(in.owned(), in.ghost_width(), mesh::MemorySpace::device, "d_in");
  mesh::Field<T, Dim> d_out(in.owned(), 0, mesh::MemorySpace::device, "d_out");
  d_in.copy_from(in);
  for (const auto& t : variants<Dim>()) {
    FilterPlan<T, Dim> plan(w, b, global, t);
    try {
      plan.apply(d_in, d_out, update, stream.get());
    } catch (const Error& e) {
      ADD_FAILURE() << t << ", " << ft::describe<Dim>(w, b) << ": " << e.what();
      continue;
    }
    got.copy_from(d_out);  // waits for every stream
    const auto differ = ft::bit_difference(got, want, update);
    EXPECT_EQ(differ.count, 0u) << t << " (ran " << plan.path() << "), " << ft::describe<Dim>(w, b) << ", update " << update << ":"
                          << differ.first;
  }
}

template <class T, int Dim>
void expect_variants_equal_host(const ft::Dense& input, const FilterWeights<Dim>& w, const Boundary& b, mesh::Stream& stream) {
  const auto global = ft::box_of<Dim>(input.n);
  mesh::Field<T, Dim> in(global, 0, mesh::MemorySpace::host);
  ft::put(input, in, ft::origin<Dim>());
  expect_variants_equal_host<T, Dim>(in, global, global, w, b, stream);
}
}  // namespace

TYPED_TEST(FilterGpu, EveryVariantEqualsTheHostReferenceBitwise) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  using T = typename TypeParam::value_type;
  constexpr int Dim = TypeParam::dim;
  mesh::Stream stream;
  const ft::Dense input = ft::random_dense({37, 29, Dim == 3 ? 13 : 1}, 7);
  for (const auto& w : ft::filter_cases<Dim>())
    for (const auto& b : ft::boundary_cases()) expect_variants_equal_host<T, Dim>(input, w, b, stream);
}

TYPED_TEST(FilterGpu, RadiusThirtyTwoAlongEachAxis) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  using T = typename TypeParam::value_type;
  constexpr int Dim = TypeParam::dim;
  mesh::Stream stream;
  for (int axis = 0; axis < Dim; ++axis)
    for (int length : {64, 65}) {
      std::array<long, 3> n{5, 4, Dim == 3 ? 3 : 1};
      n[axis] = 81;
      const ft::Dense input = ft::random_dense(n, 8u + axis);
      std::array<std::vector<double>, Dim> axes;
      for (int d = 0; d < Dim; ++d) axes[d] = d == axis ? ft::random_weights(length, 40u + length) : mean_weights(3);
      for (const auto& b : ft::boundary_cases()) expect_variants_equal_host<T, Dim>(input, separable_weights<Dim>(axes), b, stream);
    }
}

// The streaming kernel at every radius 0..32 on every axis and in every mode: the lengths its loops
// are unrolled for (3, 5, 9, 33) and the loops at run time, a tile small enough to stream even
// radius 32 in 3D double, and the defaults wherever they fit.
TYPED_TEST(FilterGpu, StreamingAtEveryRadius) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  using T = typename TypeParam::value_type;
  constexpr int Dim = TypeParam::dim;
  mesh::Stream stream;
  const ft::Dense input = ft::random_dense({Dim == 3 ? 38 : 70, Dim == 3 ? 36 : 67, Dim == 3 ? 34 : 1}, 12);
  const auto global = ft::box_of<Dim>(input.n);
  mesh::Field<T, Dim> in(global, 0, mesh::MemorySpace::host), want(global, 0, mesh::MemorySpace::host), got(global, 0, mesh::MemorySpace::host);
  ft::put(input, in, ft::origin<Dim>());
  mesh::Field<T, Dim> d_in(global, 0, mesh::MemorySpace::device), d_out(global, 0, mesh::MemorySpace::device);
  d_in.copy_from(in);
  const FilterTunables small{FilterVariant::streaming, 64, 8, 2, 8, true, 2, false, 2};
  const FilterTunables ring{FilterVariant::ring, 32, 1, Dim == 3 ? 2 : 1, 8, true, 2, false, 4};
  for (int radius = 0; radius <= 32; ++radius) {
    std::array<std::vector<double>, Dim> axes;
    for (int d = 0; d < Dim; ++d) axes[d] = ft::random_weights(2 * radius + 1, 60u + radius + d);
    const auto w = separable_weights<Dim>(axes);
    for (const auto& b : ft::boundary_cases()) {
      FilterPlan<T, Dim>(w, b, global).apply(in, want, global, nullptr);
      for (const auto& t : {small, ring, FilterTunables::defaults_for(Dim), FilterTunables::streaming_defaults_for(Dim)}) {
        FilterPlan<T, Dim> plan(w, b, global, t);
        plan.apply(d_in, d_out, global, stream.get());
        got.copy_from(d_out);
        if (t.variant == FilterVariant::streaming && t.tile_x == small.tile_x) {
          EXPECT_STREQ(plan.path(), "streaming") << "radius " << radius;
        }
        const bool compiled = radius == 1 || radius == 2 || radius == 4 || radius == 16;  // lengths 3, 5, 9, 33
        if (t.variant == FilterVariant::ring && t.threads == ring.threads) {
          if (compiled) {
            EXPECT_STREQ(plan.path(), "ring") << "radius " << radius;
          } else {
            EXPECT_STRNE(plan.path(), "ring") << "radius " << radius;
          }  // the streaming defaults, or what they fall back to
        }
        const auto differ = ft::bit_difference(got, want, global);
        EXPECT_EQ(differ.count, 0u) << t << " (ran " << plan.path() << "), radius " << radius << ", " << ft::describe<Dim>(w, b) << ":"
                                    << differ.first;
      }
    }
  }
}

// The ring, warp and panel kernels at each length they are compiled for (ring: 3, 5, 9, 33 on
// every filtered axis, in 2D also x alone and a 1D signal; warp: x alone and a 1D signal; panel:
// both axes of a 2D field; elsewhere warp and panel tunables run the ring defaults), every mode,
// on arrays wide enough for interior blocks (the vector path without mode mapping) beside edge
// blocks and partial tiles, and on a decomposed piece whose ghosts they read. Where a block's shared memory exceeds the device's, the plan runs the
// streaming defaults (or what they fall back to) instead, and says so.
TYPED_TEST(FilterGpu, RingWarpAndPanelKernelsAtTheirLengthsInEveryMode) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  using T = typename TypeParam::value_type;
  constexpr int Dim = TypeParam::dim;
  mesh::Stream stream;
  const std::size_t device_bytes = device_shared_bytes_per_block();
  const FilterTunables tunables[] = {FilterTunables::defaults_for(Dim),
                                     {FilterVariant::ring, 32, 1, Dim == 3 ? 2 : 1, 5, true, 2, false, 6},
                                     {FilterVariant::ring, 64, 1, Dim == 3 ? 4 : 1, 1, true, 8, false, 32},
                                     {FilterVariant::ring, 256, 1, Dim == 3 ? 16 : 1, 64, true, 4, false, 8},
                                     {FilterVariant::ring, 128, 1, Dim == 3 ? 8 : 1, 19, true, 4, false, 16},
                                     {FilterVariant::warp, 64, 1, 1, 19, true, 2, false, 6},
                                     {FilterVariant::warp, 256, 1, 1, 64, true, 4, false, 16},
                                     {FilterVariant::panel, 128, 1, 1, 19, true, 2, false, 2},
                                     {FilterVariant::panel, 64, 1, 1, 40, true, 2, false, 1},
                                     {FilterVariant::panel, 256, 1, 1, 128, true, 2, false, 3},
                                     {FilterVariant::panel, 64, 1, 1, 7, true, 2, false, 3},
                                     {FilterVariant::panel, 128, 1, 1, 19, true, 2, false, 2, 0, false, 1},
                                     {FilterVariant::panel, 256, 1, 1, 37, true, 2, false, 1, 0, false, 1},
                                     {FilterVariant::panel, 64, 1, 1, 23, true, 2, false, 3, 0, false, 2},
                                     {FilterVariant::panel, 256, 1, 1, 128, true, 2, false, 1, 0, false, 2}};
  struct Case {
    std::array<long, 3> n;
    std::array<std::vector<double>, Dim> w;
  };
  std::vector<Case> cases;
  for (int k : {3, 5, 9, 33}) {
    Case c{{Dim == 3 ? 150 : 300, Dim == 3 ? 40 : 90, Dim == 3 ? 37 : 1}, {}};
    for (int d = 0; d < Dim; ++d) c.w[d] = ft::random_weights(k, 70u + 3 * k + d);
    cases.push_back(c);
    if (k == 9 && Dim == 2) {  // interior blocks of the defaults' 512-column tiles
      Case wide = c;
      wide.n = {1300, 70, 1};
      cases.push_back(wide);
    }
    if constexpr (Dim == 2) {
      c.w[1] = identity_weights();  // x alone: rows apart
      cases.push_back(c);
      c.n = {5003, 1, 1};  // a 1D signal
      cases.push_back(c);
    }
  }
  for (const auto& c : cases) {
    const ft::Dense input = ft::random_dense(c.n, 13);
    const auto global = ft::box_of<Dim>(input.n);
    const auto w = separable_weights<Dim>(c.w);
    const std::array<int, 3> length = ring_lengths<Dim>(c.w);
    ASSERT_NE(length[0], 0) << ft::describe<Dim>(w, {});
    mesh::Field<T, Dim> in(global, 0, mesh::MemorySpace::host), want(global, 0, mesh::MemorySpace::host), got(global, 0, mesh::MemorySpace::host);
    ft::put(input, in, ft::origin<Dim>());
    mesh::Field<T, Dim> d_in(global, 0, mesh::MemorySpace::device), d_out(global, 0, mesh::MemorySpace::device);
    d_in.copy_from(in);
    for (const auto& b : ft::boundary_cases()) {
      FilterPlan<T, Dim>(w, b, global).apply(in, want, global, nullptr);
      for (const auto& t : tunables) {
        FilterPlan<T, Dim> plan(w, b, global, t);
        plan.apply(d_in, d_out, global, stream.get());
        got.copy_from(d_out);
        if (t.variant == FilterVariant::warp && warp_length<Dim>(c.w) != 0) {
          EXPECT_STREQ(plan.path(), "warp") << t;
        } else if (t.variant == FilterVariant::panel && panel_length<Dim>(c.w) != 0) {
          EXPECT_STREQ(plan.path(), "panel") << t;  // every shape above fits at every length
        } else {
          const bool own = t.variant == FilterVariant::warp || t.variant == FilterVariant::panel;
          const FilterTunables& r = own ? FilterTunables::ring_defaults_for(Dim) : t;
          const bool fits = r.threads <= ring_max_threads(length) && ring_shared_bytes<T, Dim>(r, length) <= device_bytes;
          if (fits) {
            EXPECT_STREQ(plan.path(), "ring") << t;
          } else {
            EXPECT_STRNE(plan.path(), "ring") << t;
          }  // the streaming defaults, or what they fall back to
        }
        const auto differ = ft::bit_difference(got, want, global);
        EXPECT_EQ(differ.count, 0u) << t << " (ran " << plan.path() << "), n " << c.n[0] << 'x' << c.n[1] << 'x' << c.n[2] << ", "
                                    << ft::describe<Dim>(w, b) << ":" << differ.first;
      }
    }
    // A decomposed piece: the upper part of the array, its ghosts (a reach deep) filled with the
    // array's values, the global edges mapped by the mode.
    mesh::Box<Dim> piece = global;
    for (int d = 0; d < Dim; ++d) piece.lo[d] = global.extent(d) / 3;
    const Boundary b{BoundaryMode::reflect, 0.0};
    FilterPlan<T, Dim>(w, b, global).apply(in, want, global, nullptr);
    const int reach = FilterPlan<T, Dim>(w, b, global).reach();
    mesh::Field<T, Dim> p_in(piece, reach, mesh::MemorySpace::host);
    const auto g = p_in.ghosted();
    ft::Dense window({static_cast<long>(g.extent(0)), static_cast<long>(g.extent(1)), Dim == 3 ? static_cast<long>(g.extent(Dim - 1)) : 1});
    for (long k = 0; k < window.n[2]; ++k)
      for (long j = 0; j < window.n[1]; ++j)
        for (long i = 0; i < window.n[0]; ++i) {
          const auto clamp = [](long v, long n) { return v < 0 ? 0 : v >= n ? n - 1 : v; };  // ghosts past the edge: never read
          window.at(i, j, k) = input.at(clamp(g.lo[0] + i, c.n[0]), clamp(g.lo[1] + j, c.n[1]), Dim == 3 ? clamp(g.lo[Dim - 1] + k, c.n[2]) : 0);
        }
    ft::put(window, p_in, {g.lo[0], g.lo[1], Dim == 3 ? g.lo[Dim - 1] : 0});
    mesh::Field<T, Dim> p_dev(piece, reach, mesh::MemorySpace::device), p_out(piece, 0, mesh::MemorySpace::device);
    p_dev.copy_from(p_in);
    mesh::Field<T, Dim> p_got(piece, 0, mesh::MemorySpace::host);
    for (const auto& t : tunables) {
      FilterPlan<T, Dim> plan(w, b, global, t);
      plan.apply(p_dev, p_out, piece, stream.get());
      p_got.copy_from(p_out);
      const auto differ = ft::bit_difference(p_got, want, piece);
      EXPECT_EQ(differ.count, 0u) << t << " (ran " << plan.path() << ") on piece " << piece << ", " << ft::describe<Dim>(w, b) << ":" << differ.first;
    }
  }
}

TYPED_TEST(FilterGpu, ADecomposedPieceReadsItsGhosts) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  using T = typename TypeParam::value_type;
  constexpr int Dim = TypeParam::dim;
  mesh::Stream stream;
  const std::array<long, 3> n{40, 30, Dim == 3 ? 20 : 1};
  const auto global = ft::box_of<Dim>(n);
  mesh::Box<Dim> piece = global;  // the upper corner piece: two global edges, two ghost sides
  for (int d = 0; d < Dim; ++d) piece.lo[d] = n[d] / 3;
  for (const auto& w : ft::filter_cases<Dim>())
    for (const auto& b : ft::boundary_cases()) {
      if (b.mode == BoundaryMode::wrap) continue;  // reads the far end of the array: not this piece's
      const int reach = FilterPlan<T, Dim>(w, b, global).reach();
      mesh::Field<T, Dim> in(piece, reach, mesh::MemorySpace::host);
      const ft::Dense values = ft::random_dense({n[0] + 2 * reach, n[1] + 2 * reach, Dim == 3 ? n[2] + 2 * reach : 1}, 9);
      std::array<mesh::Index, 3> lo{-reach, -reach, Dim == 3 ? -reach : 0};
      // The ghosted piece's points from a larger array: the ones inside `global` are what a halo
      // exchange leaves there; the ones beyond must not be read (the mode maps those).
      const auto g = in.ghosted();
      ft::Dense window({static_cast<long>(g.extent(0)), static_cast<long>(g.extent(1)), Dim == 3 ? static_cast<long>(g.extent(Dim - 1)) : 1});
      for (long k = 0; k < window.n[2]; ++k)
        for (long j = 0; j < window.n[1]; ++j)
          for (long i = 0; i < window.n[0]; ++i)
            window.at(i, j, k) = values.at(g.lo[0] - lo[0] + i, g.lo[1] - lo[1] + j, Dim == 3 ? g.lo[Dim - 1] - lo[2] + k : 0);
      ft::put(window, in, {g.lo[0], g.lo[1], Dim == 3 ? g.lo[Dim - 1] : 0});
      expect_variants_equal_host<T, Dim>(in, piece, global, w, b, stream);
    }
}
