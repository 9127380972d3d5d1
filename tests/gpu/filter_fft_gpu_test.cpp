// The FFT variant on device fields, with cuFFT and with gridflow's flow-graph FFT: within its
// rounding bound of the host direct reference for every filter case and mode on arrays of one
// and of many tiles, and pieces of an array filtered apart equal the whole array bit for bit (the
// group layout, and so every transform's plan, is the whole array's whatever the piece).
#include <gtest/gtest.h>

#include <string>

#include "filter_fft_test_support.hpp"
#include "filter_test_cases.hpp"
#include "gpu_test_support.hpp"
#include "kernels/filter/fft_correlate.hpp"
#include "mesh/device.hpp"
#include "typed_cases.hpp"

using namespace gridflow;
using namespace gridflow::kernels::filter;
namespace ft = gridflow::testing;

namespace {
template <class C>
class FilterFftGpu : public ::testing::Test {};
TYPED_TEST_SUITE(FilterFftGpu, gridflow::testing::PrecisionDimCases);
}  // namespace

TYPED_TEST(FilterFftGpu, CufftAndFlowGraphEqualTheHostReferenceWithinTheBound) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  using T = typename TypeParam::value_type;
  constexpr int Dim = TypeParam::dim;
  mesh::Stream stream;
  for (const std::array<long, 3>& n : {std::array<long, 3>{13, 12, Dim == 3 ? 11 : 1}, std::array<long, 3>{70, 45, Dim == 3 ? 34 : 1}}) {
    const ft::Dense input = ft::random_dense(n, 11);
    const auto global = ft::box_of<Dim>(n);
    mesh::Field<T, Dim> in(global, 0, mesh::MemorySpace::host), want(global, 0, mesh::MemorySpace::host),
        got(global, 0, mesh::MemorySpace::host);
    ft::put(input, in, ft::origin<Dim>());
    mesh::Field<T, Dim> d_in(global, 0, mesh::MemorySpace::device), d_out(global, 0, mesh::MemorySpace::device);
    d_in.copy_from(in);
    for (const auto& w : ft::filter_cases<Dim>())
      for (const auto& b : ft::boundary_cases()) {
        FilterPlan<T, Dim>(w, b, global).apply(in, want, global, nullptr);
        long long longest = 0;
        for (int d = 0; d < Dim; ++d) longest = std::max<long long>(longest, power_of_two_at_least(n[d] + w.length(d)));
        const double bound = fft_error_bound<T, Dim>(w, longest, std::max(1.0, std::abs(b.cval)));
        for (bool flow_graph : {false, true})
          for (long long tile : {0LL, 5LL}) {
            FilterPlan<T, Dim> plan(w, b, global, ft::fft_tunables(tile, flow_graph));
            plan.apply(d_in, d_out, global, stream.get());
            got.copy_from(d_out);
            EXPECT_EQ(std::string(plan.path()).rfind("fft ", 0), 0u) << plan.path();
            EXPECT_LE(ft::max_difference(got, want, global), bound)
                << ft::describe<Dim>(w, b) << ", tile " << tile << ", " << plan.path() << " on " << global;
          }
      }
  }
}

TYPED_TEST(FilterFftGpu, PiecesFilteredApartEqualTheWholeArrayBitwise) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  mesh::Stream stream;
  for (bool flow_graph : {false, true})
    for (long long tile : {0LL, 6LL})
      ft::expect_fft_pieces_equal_whole<typename TypeParam::value_type, TypeParam::dim>(mesh::MemorySpace::device, stream.get(), tile,
                                                                                        flow_graph);
}
