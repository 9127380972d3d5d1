// The host reference of the filters (FilterPlan on host fields) against the padded-array formula
// of filter_reference.hpp: every built-in and mode, 2D and 3D, float and double, radius 0, 1, 5
// and 32, even lengths, full weights; sub-boxes; and the refusals.
#include <gtest/gtest.h>

#include "filter_test_cases.hpp"
#include "mesh/check.hpp"
#include "typed_cases.hpp"

using namespace gridflow;
using namespace gridflow::kernels::filter;
namespace ft = gridflow::testing;
using ft::Dense;

namespace {
template <class C>
class FilterCorrelate : public ::testing::Test {};
TYPED_TEST_SUITE(FilterCorrelate, gridflow::testing::PrecisionDimCases);

/// The host reference on a whole array of extents input.n, no ghosts.
template <class T, int Dim>
Dense host_filter(const Dense& input, const FilterWeights<Dim>& w, const Boundary& b) {
  const auto global = ft::box_of<Dim>(input.n);
  mesh::Field<T, Dim> in(global, 0, mesh::MemorySpace::host), out(global, 0, mesh::MemorySpace::host);
  ft::put(input, in, ft::origin<Dim>());
  FilterPlan<T, Dim> plan(w, b, global);
  plan.apply(in, out, global, nullptr);
  return ft::take(out, ft::origin<Dim>(), input.n);
}

template <class T, int Dim>
void expect_matches_reference(const Dense& input, const FilterWeights<Dim>& w, const Boundary& b) {
  const Dense got = host_filter<T, Dim>(input, w, b);
  const Dense want = ft::reference_filter<Dim>(input, w, b);
  const double tol = ft::filter_tolerance<T, Dim>(input, w, b);
  EXPECT_LE(ft::max_abs_difference(got, want), tol) << ft::describe<Dim>(w, b);
}
}  // namespace

TYPED_TEST(FilterCorrelate, EveryBuiltInAndModeMatchesThePaddedArrayFormula) {
  using T = typename TypeParam::value_type;
  constexpr int Dim = TypeParam::dim;
  const Dense input = ft::rounded<T>(ft::random_dense({13, 12, Dim == 3 ? 11 : 1}, 1));
  for (const auto& w : ft::filter_cases<Dim>())
    for (const auto& b : ft::boundary_cases()) expect_matches_reference<T, Dim>(input, w, b);
}

TYPED_TEST(FilterCorrelate, RadiusOneAndThirtyTwoAlongEachAxis) {
  using T = typename TypeParam::value_type;
  constexpr int Dim = TypeParam::dim;
  for (int axis = 0; axis < Dim; ++axis)
    for (int length : {2, 3, 64, 65}) {  // radius 1 and 32, odd and even
      std::array<long, 3> n{3, 3, Dim == 3 ? 3 : 1};
      n[axis] = 70;
      const Dense input = ft::rounded<T>(ft::random_dense(n, 2u + axis));
      std::array<std::vector<double>, Dim> axes;
      for (int d = 0; d < Dim; ++d) axes[d] = d == axis ? ft::random_weights(length, 30u + length) : mean_weights(3);
      for (const auto& b : ft::boundary_cases()) expect_matches_reference<T, Dim>(input, separable_weights<Dim>(axes), b);
    }
}

TYPED_TEST(FilterCorrelate, OnlyTheUpdateBoxIsWritten) {
  using T = typename TypeParam::value_type;
  constexpr int Dim = TypeParam::dim;
  const std::array<long, 3> n{13, 12, Dim == 3 ? 11 : 1};
  const Dense input = ft::rounded<T>(ft::random_dense(n, 3));
  const auto global = ft::box_of<Dim>(n);
  mesh::Box<Dim> update = global;
  update.lo[0] = 2;
  update.hi[1] = 6;
  for (const auto& w : ft::filter_cases<Dim>()) {
    const Boundary b{BoundaryMode::mirror, 0.0};
    const Dense whole = ft::reference_filter<Dim>(input, w, b);
    mesh::Field<T, Dim> in(global, 0, mesh::MemorySpace::host), out(global, 0, mesh::MemorySpace::host);
    ft::put(input, in, ft::origin<Dim>());
    Dense sentinel(n);
    for (double& x : sentinel.v) x = -7.0;
    ft::put(sentinel, out, ft::origin<Dim>());
    FilterPlan<T, Dim>(w, b, global).apply(in, out, update, nullptr);
    const Dense got = ft::take(out, ft::origin<Dim>(), n);
    const double tol = ft::filter_tolerance<T, Dim>(input, w, b);
    for (long k = 0; k < n[2]; ++k)
      for (long j = 0; j < n[1]; ++j)
        for (long i = 0; i < n[0]; ++i) {
          const bool inside = i >= update.lo[0] && j <= update.hi[1];
          if (inside) ASSERT_NEAR(got.at(i, j, k), whole.at(i, j, k), tol) << ft::describe<Dim>(w, b);
          else ASSERT_EQ(got.at(i, j, k), -7.0) << ft::describe<Dim>(w, b) << " wrote outside the update box";
        }
  }
}

namespace {
std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}
}  // namespace

TEST(FilterCorrelateErrors, BadArgumentsAreRefusedWithAReason) {
  const mesh::Box<2> global{{0, 0}, {3, 9}};
  EXPECT_NE(error_of([&] { FilterPlan<double, 2>(mean_filter<2>({11, 1}), {}, global); })
                .find("radius 5 along axis 0 is larger than the array's extent 4"),
            std::string::npos);
  EXPECT_NE(error_of([&] { FilterPlan<double, 2>(mean_filter<2>({3, 3}), {}, global, FilterTunables{FilterVariant::tiled, 48}); })
                .find("invalid tunables"),
            std::string::npos);
  // A decomposed field whose ghosts are shallower than the filter's reach.
  const mesh::Box<2> big{{0, 0}, {19, 9}};
  const mesh::Box<2> half{{0, 0}, {9, 9}};
  mesh::Field<double, 2> in(half, 1, mesh::MemorySpace::host), out(half, 1, mesh::MemorySpace::host);
  FilterPlan<double, 2> plan(mean_filter<2>({5, 5}), {}, big);
  EXPECT_EQ(plan.reach(), 2);
  EXPECT_NE(error_of([&] { plan.apply(in, out, half, nullptr); }).find("ghost cells at least 2 deep"), std::string::npos);
  EXPECT_NE(error_of([&] { plan.apply(in, in, half, nullptr); }).find("the same field"), std::string::npos);
  EXPECT_NE(error_of([&] { plan.apply(in, out, half.grow(1), nullptr); }).find("not inside"), std::string::npos);
  // wrap on an axis split over ranks reads the far end of the array, which this rank does not hold
  FilterPlan<double, 2> wrap(mean_filter<2>({3, 1}), {BoundaryMode::wrap, 0.0}, big);
  EXPECT_NE(error_of([&] { wrap.apply(in, out, half, nullptr); }).find("periodic ghosts"), std::string::npos);
}
