// The device plan's composition, run on the host: FlowGraphPasses (one pass, or the two or three
// passes of a multi-pass split through a scratch) with every pass done by the host emulation of an
// on-chip launch, against FFTW, for small pass limits (many splits) and the device's 4096, on
// contiguous, strided, interleaved and in-place layouts; and the half-length split and merge of
// r2c / c2r (flow_graph_real_point.hpp) around the host flow graph, against FFTW. What the GPU
// suite cannot show on a machine without a GPU, the index and formula work, is checked here.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "flow_graph_test_support.hpp"
#include "kernels/fft/fft_plan.hpp"
#include "kernels/fft/flow_graph.hpp"
#include "kernels/fft/flow_graph_passes.hpp"
#include "kernels/fft/flow_graph_real_point.hpp"
#include "mesh/check.hpp"

namespace {

namespace fft = gridflow::kernels::fft;
namespace gt = gridflow::testing;
using fft::Complex;
using fft::ComplexLines;
using fft::FftDirection;
using fft::FftKind;
using fft::FftLayout;
using fft::FlowGraphPasses;
using gridflow::mesh::MemorySpace;

template <class T>
class FlowGraphComposition : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(FlowGraphComposition, Precisions);

TEST(FlowGraphPassesTest, SplitsOnlyBeyondThePassLimitIntoBalancedPowersOfTwo) {
  for (std::int64_t limit : {8, 64, 4096})
    for (std::int64_t length = 1; length <= limit * limit * limit; length *= 2) {
      const auto p = FlowGraphPasses::for_length(length, limit);
      const std::string what = "length " + std::to_string(length) + " limit " + std::to_string(limit);
      EXPECT_EQ(p.multi_pass(), length > limit) << what;
      std::int64_t product = 1;
      for (std::size_t q = 0; q < p.factors.size(); ++q) {
        product *= p.factors[q];
        EXPECT_LE(p.factors[q], limit) << what;
        if (q > 0) {
          EXPECT_TRUE(p.factors[q] == p.factors[q - 1] || p.factors[q] == 2 * p.factors[q - 1]) << what;
        }
      }
      EXPECT_EQ(product, length) << what;
      EXPECT_EQ(p.count(), length <= limit ? 1 : length <= limit * limit ? 2 : 3) << what;  // the fewest
    }
  EXPECT_EQ(FlowGraphPasses::for_length(1 << 20, 4096).factors, (std::vector<std::int64_t>{1024, 1024}));
  EXPECT_EQ(FlowGraphPasses::for_length(1 << 21, 4096).factors, (std::vector<std::int64_t>{1024, 2048}));
  EXPECT_EQ(FlowGraphPasses::for_length(1 << 24, 4096).factors, (std::vector<std::int64_t>{4096, 4096}));
  EXPECT_EQ(FlowGraphPasses::for_length(1 << 22, 4096, 3).factors, (std::vector<std::int64_t>{128, 128, 256}));
  EXPECT_EQ(FlowGraphPasses::for_length(1 << 24, 4096, 3).factors, (std::vector<std::int64_t>{256, 256, 256}));
  EXPECT_EQ(FlowGraphPasses::for_length(1 << 13, 4096, 3).factors, (std::vector<std::int64_t>{16, 16, 32}));
  EXPECT_THROW(FlowGraphPasses::for_length(std::int64_t(1) << 37, 4096), gridflow::Error);
  EXPECT_THROW(FlowGraphPasses::for_length(std::int64_t(1) << 25, 4096, 2), gridflow::Error);
  EXPECT_THROW(FlowGraphPasses::for_length(64, 4096, 4), gridflow::Error);
  EXPECT_THROW(FlowGraphPasses::for_length(4, 4096, 3), gridflow::Error);
  EXPECT_THROW(FlowGraphPasses::for_length(12, 4096), gridflow::Error);
}

/// The c2c transform of `l` composed by FlowGraphPasses with passes of at most `limit` points
/// (`count` of them, 0: the automatic choice), each emulated on the host; its relative L2 error
/// against FFTW.
template <class T>
double composed_error(const FftLayout& l, std::int64_t limit, bool in_place, int count = 0) {
  const auto passes = FlowGraphPasses::for_length(l.n, limit, count);
  const auto x = gt::random_input_lines<T>(l, 3);
  auto in = gt::input_buffer<T>(l, x, T(7));
  auto out = in_place ? std::vector<T>() : gt::output_buffer<T>(l, T(-3));
  std::vector<Complex<T>> scratch(passes.multi_pass() ? l.batch * l.n : 0);
  auto* src = reinterpret_cast<Complex<T>*>(in.data());
  auto* dst = in_place ? src : reinterpret_cast<Complex<T>*>(out.data());
  passes.run(l.batch, static_cast<const Complex<T>*>(src), ComplexLines{l.stride, l.resolved_in_distance()}, dst,
             ComplexLines{l.stride, l.resolved_out_distance()}, scratch.data(),
             l.direction == FftDirection::forward ? -1 : 1,
             [](const Complex<T>* i, Complex<T>* o, const fft::OnChipShape& s) { gt::run_onchip_shape_on_host(i, o, s); });
  const auto& result = in_place ? in : out;
  if (!in_place) {
    EXPECT_EQ(gt::changed_output_gaps(l, result, T(-3)), 0) << gt::describe(l) << " limit " << limit;
  }
  return gt::relative_l2_error(gt::output_lines(l, result), gt::fftw_reference(l, x));
}

TYPED_TEST(FlowGraphComposition, TwoAndThreePassesMatchFftwOnEveryLayout) {
  using T = TypeParam;
  struct Case {
    std::int64_t n, limit;
    int passes;  // 0: automatic
  };
  // Automatic: one pass, two, three (128 over 8 can only be 4 x 4 x 8); then every count asked for.
  const Case cases[] = {{8, 8, 0},        {16, 8, 0},         {32, 8, 0},         {64, 8, 0},       {128, 8, 0},
                        {512, 8, 0},      {128, 16, 0},       {2048, 64, 0},      {8192, 4096, 0},  {1 << 15, 4096, 0},
                        {64, 4096, 2},    {64, 4096, 3},      {8192, 4096, 3},    {1 << 15, 4096, 3}};
  for (const Case& c : cases)
    for (auto dir : {FftDirection::forward, FftDirection::inverse}) {
      FftLayout l;
      l.n = c.n;
      l.direction = dir;
      l.batch = 3;
      const std::string what = " limit " + std::to_string(c.limit) + " passes " + std::to_string(c.passes);
      EXPECT_LE(composed_error<T>(l, c.limit, false, c.passes), gt::fft_tolerance<T>()) << gt::describe(l) << what;
      l.stride = 2;
      l.in_distance = 2 * c.n + 3;
      l.out_distance = 2 * c.n + 1;
      EXPECT_LE(composed_error<T>(l, c.limit, false, c.passes), gt::fft_tolerance<T>()) << gt::describe(l) << what;
      l.stride = l.batch;
      l.in_distance = l.out_distance = 1;
      EXPECT_LE(composed_error<T>(l, c.limit, false, c.passes), gt::fft_tolerance<T>()) << gt::describe(l) << what;
      EXPECT_LE(composed_error<T>(l, c.limit, true, c.passes), gt::fft_tolerance<T>()) << gt::describe(l) << what << " in place";
    }
}

/// r2c of `batch` contiguous lines of n reals: the half-length complex transform (host flow
/// graph) of z_j = x_2j + i x_2j+1, then r2c_split_point per bin.
template <class T>
std::vector<Complex<T>> r2c_by_split(const std::vector<T>& x, std::int64_t n, std::int64_t batch) {
  const std::int64_t m = n / 2;
  FftLayout half;
  half.n = m;
  half.batch = batch;
  std::vector<Complex<T>> z(m * batch);
  fft::make_fft_plan<T>(half, MemorySpace::host, nullptr, {fft::FftBackend::host_flow_graph, ""})
      ->execute(reinterpret_cast<const Complex<T>*>(x.data()), z.data());
  const auto w = fft::flow_graph_twiddle_values<T>(n, -1);
  std::vector<Complex<T>> out((m + 1) * batch);
  for (std::int64_t b = 0; b < batch; ++b)
    for (std::int64_t k = 0; k <= m; ++k) {
      const Complex<T> wk = k < m ? Complex<T>{w[2 * k], w[2 * k + 1]} : Complex<T>{T(-1), T(0)};
      out[b * (m + 1) + k] = fft::r2c_split_point(z[b * m + k % m], z[b * m + (m - k) % m], wk);
    }
  return out;
}

/// c2r of `batch` contiguous half spectra: c2r_merge_point per bin, the inverse half-length
/// transform, whose output read as reals is the answer.
template <class T>
std::vector<T> c2r_by_merge(const std::vector<Complex<T>>& spectrum, std::int64_t n, std::int64_t batch) {
  const std::int64_t m = n / 2;
  const auto w = fft::flow_graph_twiddle_values<T>(n, -1);
  std::vector<Complex<T>> z(m * batch);
  for (std::int64_t b = 0; b < batch; ++b)
    for (std::int64_t k = 0; k < m; ++k)
      z[b * m + k] = fft::c2r_merge_point(spectrum[b * (m + 1) + k], spectrum[b * (m + 1) + m - k],
                                          Complex<T>{w[2 * k], w[2 * k + 1]}, k == 0);
  FftLayout half;
  half.n = m;
  half.batch = batch;
  half.direction = FftDirection::inverse;
  std::vector<T> x(n * batch);
  fft::make_fft_plan<T>(half, MemorySpace::host, nullptr, {fft::FftBackend::host_flow_graph, ""})
      ->execute(z.data(), reinterpret_cast<Complex<T>*>(x.data()));
  return x;
}

TYPED_TEST(FlowGraphComposition, HalfLengthSplitAndMergeMatchFftw) {
  using T = TypeParam;
  for (std::int64_t n = 2; n <= 4096; n *= 2) {
    FftLayout r2c;
    r2c.kind = FftKind::r2c;
    r2c.n = n;
    r2c.batch = 3;
    const auto x = gt::random_input_lines<T>(r2c, 4);
    const auto spectrum = r2c_by_split<T>(gt::input_buffer<T>(r2c, x), n, r2c.batch);
    std::vector<T> spectrum_scalars(reinterpret_cast<const T*>(spectrum.data()),
                                    reinterpret_cast<const T*>(spectrum.data()) + 2 * spectrum.size());
    EXPECT_LE(gt::relative_l2_error(gt::output_lines(r2c, spectrum_scalars), gt::fftw_reference(r2c, x)),
              gt::fft_tolerance<T>())
        << gt::describe(r2c);

    FftLayout c2r = r2c;
    c2r.kind = FftKind::c2r;
    c2r.direction = FftDirection::inverse;
    const auto y = gt::random_input_lines<T>(c2r, 5);  // imaginary parts of bins 0 and n/2 must be ignored
    const auto y_scalars = gt::input_buffer<T>(c2r, y);
    std::vector<Complex<T>> y_complex(y_scalars.size() / 2);
    for (std::size_t i = 0; i < y_complex.size(); ++i) y_complex[i] = {y_scalars[2 * i], y_scalars[2 * i + 1]};
    const auto real = c2r_by_merge<T>(y_complex, n, c2r.batch);
    EXPECT_LE(gt::relative_l2_error(gt::output_lines(c2r, real), gt::fftw_reference(c2r, y)), gt::fft_tolerance<T>())
        << gt::describe(c2r);
  }
}

}  // namespace
