// The device plan's composition, run on the host: FlowGraphPasses (one pass, or the four-step's
// column and row passes through a scratch) with every pass done by the host emulation of an
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
    for (std::int64_t length = 1; length <= limit * limit; length *= 2) {
      const auto p = FlowGraphPasses::for_length(length, limit);
      EXPECT_EQ(p.four_step(), length > limit) << "length " << length << " limit " << limit;
      EXPECT_EQ(p.n1 * p.n2, length) << "length " << length << " limit " << limit;
      EXPECT_LE(p.n2, limit) << "length " << length << " limit " << limit;
      if (p.four_step()) {
        EXPECT_TRUE(p.n2 == p.n1 || p.n2 == 2 * p.n1) << "length " << length;
      }
    }
  EXPECT_THROW(FlowGraphPasses::for_length(4096 * 8192, 4096), gridflow::Error);
  EXPECT_THROW(FlowGraphPasses::for_length(12, 4096), gridflow::Error);
}

/// The c2c transform of `l` composed by FlowGraphPasses with passes of at most `limit` points,
/// each emulated on the host; its relative L2 error against FFTW.
template <class T>
double composed_error(const FftLayout& l, std::int64_t limit, bool in_place) {
  const auto passes = FlowGraphPasses::for_length(l.n, limit);
  const auto x = gt::random_input_lines<T>(l, 3);
  auto in = gt::input_buffer<T>(l, x, T(7));
  auto out = in_place ? std::vector<T>() : gt::output_buffer<T>(l, T(-3));
  std::vector<Complex<T>> scratch(passes.four_step() ? l.batch * l.n : 0);
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

TYPED_TEST(FlowGraphComposition, FourStepMatchesFftwOnEveryLayout) {
  using T = TypeParam;
  const std::pair<std::int64_t, std::int64_t> cases[] = {{8, 8},    {16, 8},     {32, 8},     {64, 8},  {128, 16},
                                                         {2048, 64}, {8192, 4096}, {1 << 15, 4096}};
  for (auto [n, limit] : cases)
    for (auto dir : {FftDirection::forward, FftDirection::inverse}) {
      FftLayout l;
      l.n = n;
      l.direction = dir;
      l.batch = 3;
      EXPECT_LE(composed_error<T>(l, limit, false), gt::fft_tolerance<T>()) << gt::describe(l) << " limit " << limit;
      l.stride = 2;
      l.in_distance = 2 * n + 3;
      l.out_distance = 2 * n + 1;
      EXPECT_LE(composed_error<T>(l, limit, false), gt::fft_tolerance<T>()) << gt::describe(l) << " limit " << limit;
      l.stride = l.batch;
      l.in_distance = l.out_distance = 1;
      EXPECT_LE(composed_error<T>(l, limit, false), gt::fft_tolerance<T>()) << gt::describe(l) << " limit " << limit;
      EXPECT_LE(composed_error<T>(l, limit, true), gt::fft_tolerance<T>())
          << gt::describe(l) << " limit " << limit << " in place";
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
