// launch_onchip_fft against a host reference: a radix-2 FFT in long double with exactly computed
// twiddles (itself checked against the direct DFT). Every length 2..4096 at every radix and both
// twiddle sources; contiguous lines, interleaved lines (the four-step column pass), two-level
// addressing with the fused twiddle, transposed output (the row pass), in place, the inverse sign,
// explicit lines per block with a partial last block. The whole output buffer is compared, so a
// kernel writing outside its lines fails too: relative L2 error <= 1e-5 (float), 1e-12 (double).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gpu_test_support.hpp"
#include "kernels/fft/flow_graph_cuda.hpp"
#include "kernels/fft/flow_graph_lines_cuda.hpp"
#include "kernels/fft/flow_graph_passes.hpp"
#include "mesh/check.hpp"
#include "mesh/device.hpp"

#if GRIDFLOW_HAVE_CUDA

namespace {

namespace fft = gridflow::kernels::fft;
using fft::Complex;
using fft::FlowGraphTunables;
using fft::OnChipShape;
using gridflow::mesh::MemorySpace;
using Exact = std::complex<long double>;

constexpr long double pi = 3.141592653589793238462643383279502884L;

/// sum_j x_j exp(sign 2 pi i j k / n), straight from the definition.
std::vector<Exact> direct_dft(const std::vector<Exact>& x, int sign) {
  const std::size_t n = x.size();
  std::vector<Exact> y(n);
  for (std::size_t k = 0; k < n; ++k)
    for (std::size_t j = 0; j < n; ++j) y[k] += x[j] * std::polar(1.0L, sign * 2 * pi * static_cast<long double>((j * k) % n) / n);
  return y;
}

/// The same by iterative radix-2 decimation in time (n a power of two).
std::vector<Exact> reference_fft(std::vector<Exact> x, int sign) {
  const std::size_t n = x.size();
  for (std::size_t i = 1, j = 0; i < n; ++i) {
    std::size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j |= bit;
    if (i < j) std::swap(x[i], x[j]);
  }
  for (std::size_t half = 1; half < n; half *= 2)
    for (std::size_t k = 0; k < half; ++k) {
      const Exact w = std::polar(1.0L, sign * pi * static_cast<long double>(k) / half);
      for (std::size_t s = k; s < n; s += 2 * half) {
        const Exact b = x[s + half] * w;
        x[s + half] = x[s] - b;
        x[s] = x[s] + b;
      }
    }
  return x;
}

/// Elements one side (input or output) of a shape spans: the last element of its last line, plus one.
std::int64_t span(const OnChipShape& s, bool input) {
  std::int64_t end = 0;
  for (std::int64_t b = 0; b < s.batch; ++b) {
    const auto where = s.line(b);
    end = std::max(end, (input ? where.in + (s.n - 1) * s.in_stride : where.out + (s.n - 1) * s.out_stride) + 1);
  }
  return end;
}

/// What the shape's transform of `in` leaves in `out` (out holds its prior contents elsewhere).
template <class T>
void reference_transform(const OnChipShape& s, const std::vector<Complex<T>>& in, std::vector<Complex<T>>& out) {
  std::vector<std::vector<Exact>> lines;
  for (std::int64_t b = 0; b < s.batch; ++b) {
    const auto where = s.line(b);
    std::vector<Exact> x(s.n);
    for (std::int64_t j = 0; j < s.n; ++j) {
      const auto v = in[where.in + j * s.in_stride];
      x[j] = Exact(v.re, v.im);
    }
    lines.push_back(reference_fft(x, s.sign));
  }
  for (std::int64_t b = 0; b < s.batch; ++b) {  // after every read: in and out may be one buffer
    const auto where = s.line(b);
    const std::int64_t i = where.inner;
    for (std::int64_t k = 0; k < s.n; ++k) {
      Exact y = lines[b][k];
      if (s.twiddle_length)
        y *= std::polar(1.0L, s.sign * 2 * pi * static_cast<long double>((i * k) % s.twiddle_length) / s.twiddle_length);
      out[where.out + k * s.out_stride] = {static_cast<T>(y.real()), static_cast<T>(y.imag())};
    }
  }
}

template <class T>
std::vector<Complex<T>> random_values(std::int64_t count, unsigned seed) {
  std::mt19937 engine(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<Complex<T>> v(count);
  for (auto& c : v) c = {static_cast<T>(u(engine)), static_cast<T>(u(engine))};
  return v;
}

template <class T>
double relative_l2(const std::vector<Complex<T>>& a, const std::vector<Complex<T>>& b) {
  long double d = 0, r = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const long double dr = a[i].re - b[i].re, di = a[i].im - b[i].im;
    d += dr * dr + di * di;
    r += static_cast<long double>(b[i].re) * b[i].re + static_cast<long double>(b[i].im) * b[i].im;
  }
  return static_cast<double>(std::sqrt(d / r));
}

template <class T>
constexpr double tolerance() {
  return sizeof(T) == 4 ? 1e-5 : 1e-12;
}

/// Runs the shape on the device (in place when asked) and returns its relative L2 error against
/// the reference over the whole output buffer.
template <class T>
double device_error(const OnChipShape& s, const FlowGraphTunables& tunables, bool in_place) {
  const std::int64_t in_count = span(s, true), out_count = span(s, false);
  const auto in = random_values<T>(in_count, static_cast<unsigned>(s.n * 7919 + s.batch));
  std::vector<Complex<T>> expected = in_place ? in : random_values<T>(out_count, 17);
  std::vector<Complex<T>> got(expected.size());
  reference_transform(s, in, expected);

  gridflow::mesh::Stream stream;
  const std::size_t in_bytes = in.size() * sizeof(Complex<T>), out_bytes = got.size() * sizeof(Complex<T>);
  gridflow::mesh::Buffer d_in(in_bytes, MemorySpace::device), d_out(out_bytes, MemorySpace::device);
  gridflow::mesh::copy_bytes(d_in.data(), MemorySpace::device, in.data(), MemorySpace::host, in_bytes);
  auto* x = static_cast<Complex<T>*>(d_in.data());
  auto* y = in_place ? x : static_cast<Complex<T>*>(d_out.data());
  if (!in_place) {  // what the kernel must leave alone between its lines
    const auto prior = random_values<T>(out_count, 17);
    gridflow::mesh::copy_bytes(y, MemorySpace::device, prior.data(), MemorySpace::host, out_bytes);
  }
  fft::launch_onchip_fft<T>(x, y, s, tunables, stream.get());
  gridflow::mesh::synchronize(stream.get());
  gridflow::mesh::copy_bytes(got.data(), MemorySpace::host, y, MemorySpace::device, out_bytes);
  return relative_l2(got, expected);
}

OnChipShape contiguous(std::int64_t n, std::int64_t batch, int sign = -1) {
  OnChipShape s;
  s.n = n;
  s.batch = batch;
  s.inner_lines = 1;
  s.in_stride = s.out_stride = 1;
  s.in_outer_distance = s.out_outer_distance = n;
  s.sign = sign;
  return s;
}

/// Lines side by side (element j of line b at j * batch + b), a column pass's layout.
OnChipShape interleaved(std::int64_t n, std::int64_t batch, int sign = -1) {
  OnChipShape s;
  s.n = n;
  s.batch = s.inner_lines = batch;
  s.in_stride = s.out_stride = batch;
  s.in_distance = s.out_distance = 1;
  s.in_outer_distance = s.out_outer_distance = n * batch;
  s.sign = sign;
  return s;
}

FlowGraphTunables variant(int radix, bool table, int lines_per_block = 0) {
  FlowGraphTunables t;
  t.kernel = FlowGraphTunables::Kernel::onchip;
  t.radix = radix;
  t.twiddle_table = table;
  t.lines_per_block = lines_per_block;
  return t;
}

/// The contiguous-lines kernel (flow_graph_lines_cuda.hpp) with `planes` exchange planes.
FlowGraphTunables lines_variant(int radix, bool table, int planes, bool staged, int lines_per_block = 0) {
  FlowGraphTunables t = variant(radix, table, lines_per_block);
  t.planes = planes;
  t.staged = staged;
  return t;
}

std::string describe(const OnChipShape& s, const FlowGraphTunables& t) {
  return "n=" + std::to_string(s.n) + " batch=" + std::to_string(s.batch) + " " + t.to_string() +
         " sign=" + std::to_string(s.sign) + " distances=" + std::to_string(s.in_outer_distance) + "," +
         std::to_string(s.out_outer_distance);
}

template <class T>
class OnChipFftGpu : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(OnChipFftGpu, Precisions);

TEST(OnChipFftReference, RadixTwoMatchesTheDirectDft) {
  std::mt19937 engine(3);
  std::uniform_real_distribution<long double> u(-1, 1);
  for (std::size_t n = 1; n <= 128; n *= 2)
    for (int sign : {-1, 1}) {
      std::vector<Exact> x(n);
      for (auto& v : x) v = Exact(u(engine), u(engine));
      const auto a = reference_fft(x, sign), b = direct_dft(x, sign);
      for (std::size_t k = 0; k < n; ++k) EXPECT_LT(std::abs(a[k] - b[k]), 1e-15L) << "n=" << n << " k=" << k;
    }
}

TYPED_TEST(OnChipFftGpu, EveryLengthRadixAndTwiddleSourceOnContiguousLines) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  using T = TypeParam;
  for (std::int64_t n = 2; n <= fft::max_onchip_length<T>(); n *= 2)
    for (int radix : {2, 4, 8, 16})
      for (bool table : {true, false}) {
        const auto s = contiguous(n, std::max<std::int64_t>(3, 8192 / n) + 1);
        const auto t = variant(radix, table);
        EXPECT_LE(device_error<T>(s, t, false), tolerance<T>()) << describe(s, t);
      }
}

TYPED_TEST(OnChipFftGpu, EveryLengthOnInterleavedLinesForwardAndInverse) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  using T = TypeParam;
  for (std::int64_t n = 2; n <= fft::max_onchip_length<T>(); n *= 2)
    for (int radix : {4, 16})
      for (int sign : {-1, 1}) {
        const auto s = interleaved(n, 37, sign);
        const auto t = variant(radix, radix == 4);
        EXPECT_LE(device_error<T>(s, t, false), tolerance<T>()) << describe(s, t);
      }
}

TYPED_TEST(OnChipFftGpu, InverseOnContiguousLines) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  using T = TypeParam;
  for (std::int64_t n = 2; n <= fft::max_onchip_length<T>(); n *= 4) {
    const auto s = contiguous(n, 5, +1);
    const auto t = variant(8, n % 2 == 0);
    EXPECT_LE(device_error<T>(s, t, false), tolerance<T>()) << describe(s, t);
  }
}

TYPED_TEST(OnChipFftGpu, InPlaceContiguousAndInterleaved) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  using T = TypeParam;
  for (std::int64_t n : {2, 16, 256, 4096})
    for (int radix : {2, 8, 16}) {
      const auto t = variant(radix, true);
      EXPECT_LE(device_error<T>(contiguous(n, 9), t, true), tolerance<T>()) << "in place " << describe(contiguous(n, 9), t);
      EXPECT_LE(device_error<T>(interleaved(n, 9), t, true), tolerance<T>()) << "in place " << describe(interleaved(n, 9), t);
    }
}

// Explicit lines per block, the batch not a multiple of it: the last block's idle threads must
// still take part in every exchange and write nothing.
TYPED_TEST(OnChipFftGpu, ExplicitLinesPerBlockWithAPartialLastBlock) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  using T = TypeParam;
  for (std::int64_t n : {8, 64, 512})
    for (int lines : {1, 2, 4, 8})
      for (bool interleave : {false, true}) {
        const auto s = interleave ? interleaved(n, 13) : contiguous(n, 13);
        const auto t = variant(8, true, lines);
        EXPECT_LE(device_error<T>(s, t, false), tolerance<T>()) << describe(s, t) << (interleave ? " interleaved" : "");
      }
}

// The passes of a four-step transform of length n1 n2 = n x m, `outer` transforms at once:
// the column pass (lines of length n1 at stride n2, interleaved, twiddle W_{n1 n2}^{i k} fused)
// and the row pass (contiguous lines of length n2 written transposed, at stride n1).
TYPED_TEST(OnChipFftGpu, FourStepPassesTwoLevelAddressingFusedTwiddleTransposedOutput) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  using T = TypeParam;
  const std::int64_t outer = 3;
  for (auto [n1, n2] : {std::pair<std::int64_t, std::int64_t>{64, 32}, {1024, 16}, {16, 4096}, {4096, 8}})
    for (int sign : {-1, 1}) {
      const std::int64_t length = n1 * n2;
      OnChipShape column;
      column.n = n1;
      column.batch = outer * n2;
      column.inner_lines = n2;
      column.in_stride = column.out_stride = n2;
      column.in_distance = column.out_distance = 1;
      column.in_outer_distance = column.out_outer_distance = length;
      column.sign = sign;
      column.twiddle_length = length;
      OnChipShape row;
      row.n = n2;
      row.batch = outer * n1;
      row.inner_lines = n1;
      row.in_stride = 1;
      row.in_distance = n2;
      row.out_stride = n1;
      row.out_distance = 1;
      row.in_outer_distance = row.out_outer_distance = length;
      row.sign = sign;
      for (int radix : {4, 16}) {
        const auto t = variant(radix, true);
        EXPECT_LE(device_error<T>(column, t, false), tolerance<T>()) << "column pass " << describe(column, t);
        EXPECT_LE(device_error<T>(column, t, true), tolerance<T>()) << "column pass in place " << describe(column, t);
        EXPECT_LE(device_error<T>(row, t, false), tolerance<T>()) << "row pass " << describe(row, t);
      }
    }
}

// Every pass of the device plan's two- and three-pass splits (FlowGraphPasses): column passes
// with the fused twiddle, the last pass's three-level lines stored transposed through the restage,
// at the default and explicit lines per block (partial last blocks included), in place where the
// plan runs them so.
TYPED_TEST(OnChipFftGpu, PassesOfTwoAndThreePassSplits) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  using T = TypeParam;
  const std::int64_t outer = 3;
  const std::pair<std::int64_t, int> splits[] = {{1 << 13, 2}, {1 << 13, 3}, {1 << 15, 3}, {1 << 16, 2}, {64, 3}};
  for (auto [length, count] : splits) {
    const auto passes = fft::FlowGraphPasses::for_length(length, fft::max_onchip_length<T>(), count);
    for (int sign : {-1, 1})
      for (int q = 0; q < passes.count(); ++q) {
        const auto s = passes.pass(q, outer, {1, length}, {1, length}, sign);
        const bool in_place = q > 0 && q < passes.count() - 1;
        for (int lines : {0, 1, 2, 5, 16}) {
          const auto t = variant(s.n >= 16 ? 16 : 4, lines != 2, lines);
          if (lines * s.n / t.radix > 1024) continue;
          EXPECT_LE(device_error<T>(s, t, in_place), tolerance<T>())
              << "pass " << q << " of " << passes.count() << " for length " << length << " " << describe(s, t);
        }
      }
  }
}

// The contiguous-lines kernel: every length, radix, twiddle source, plane count and load path,
// with a batch that leaves the last block partial at the default lines per block.
TYPED_TEST(OnChipFftGpu, ContiguousLinesKernelEveryLengthRadixTwiddlePlanesAndStaging) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  using T = TypeParam;
  for (std::int64_t n = 2; n <= fft::max_onchip_length<T>(); n *= 2)
    for (int radix : {2, 4, 8, 16})
      for (bool table : {true, false})
        for (int planes : {1, 2})
          for (bool staged : {false, true}) {
            const auto s = contiguous(n, std::max<std::int64_t>(3, 8192 / n) + 1);
            const auto t = lines_variant(radix, table, planes, staged);
            EXPECT_LE(device_error<T>(s, t, false), tolerance<T>()) << describe(s, t);
          }
}

// Inverse, in place, padded line distances (different on each side), explicit lines per block with a
// partial last block, and batches long enough that every persistent staged block takes several
// line blocks.
TYPED_TEST(OnChipFftGpu, ContiguousLinesKernelInverseInPlacePaddedAndLongBatches) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  using T = TypeParam;
  for (std::int64_t n : {4, 64, 1024, 4096})
    for (int planes : {1, 2})
      for (bool staged : {false, true}) {
        const auto t = lines_variant(16, n % 8 == 0, planes, staged);
        const auto inverse = contiguous(n, 7, +1);
        EXPECT_LE(device_error<T>(inverse, t, false), tolerance<T>()) << describe(inverse, t);
        EXPECT_LE(device_error<T>(contiguous(n, 9), t, true), tolerance<T>()) << "in place " << describe(contiguous(n, 9), t);
        auto padded = contiguous(n, 5);
        padded.in_outer_distance = n + 3;
        padded.out_outer_distance = 2 * n + 1;
        EXPECT_LE(device_error<T>(padded, t, false), tolerance<T>()) << describe(padded, t);
        for (int lines : {1, 2, 4}) {
          const auto partial = contiguous(n, 4 * lines + 1);
          const auto explicit_lines = lines_variant(8, true, planes, staged, lines);
          if (lines * n / 8 > 256 && lines > 1) continue;
          EXPECT_LE(device_error<T>(partial, explicit_lines, false), tolerance<T>()) << describe(partial, explicit_lines);
        }
      }
  // Far more line blocks than resident blocks: a staged block loops over many, prefetching each.
  for (bool staged : {false, true}) {
    const auto s = contiguous(64, 20011);
    const auto t = lines_variant(8, true, 1, staged, 1);
    EXPECT_LE(device_error<T>(s, t, false), tolerance<T>()) << describe(s, t);
    const auto l = contiguous(4096, 1031, +1);
    const auto u = lines_variant(16, false, 1, staged);
    EXPECT_LE(device_error<T>(l, u, true), tolerance<T>()) << "in place " << describe(l, u);
  }
}

// Shapes the contiguous-lines kernel does not take run the general kernel, with the same result.
TYPED_TEST(OnChipFftGpu, ContiguousLinesVariantOnOtherShapesRunsTheGeneralKernel) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  using T = TypeParam;
  const auto t = lines_variant(8, true, 1, true);
  EXPECT_FALSE(fft::onchip_lines_take(interleaved(64, 9)));
  EXPECT_TRUE(fft::onchip_lines_take(contiguous(64, 9)));
  auto overlapping = contiguous(64, 9);
  overlapping.in_outer_distance = 32;
  EXPECT_FALSE(fft::onchip_lines_take(overlapping));
  for (std::int64_t n : {16, 512}) {
    EXPECT_LE(device_error<T>(interleaved(n, 37), t, false), tolerance<T>()) << describe(interleaved(n, 37), t);
    OnChipShape column;  // a four-step column pass: the fused twiddle
    column.n = n;
    column.batch = column.inner_lines = 8;
    column.in_stride = column.out_stride = 8;
    column.in_distance = column.out_distance = 1;
    column.in_outer_distance = column.out_outer_distance = 8 * n;
    column.twiddle_length = 8 * n;
    EXPECT_FALSE(fft::onchip_lines_take(column));
    EXPECT_LE(device_error<T>(column, t, false), tolerance<T>()) << "column pass " << describe(column, t);
  }
}

TYPED_TEST(OnChipFftGpu, BadShapesAndTunablesThrowError) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  using T = TypeParam;
  gridflow::mesh::Stream stream;
  gridflow::mesh::Buffer buffer(std::size_t(1) << 20, MemorySpace::device);
  auto* x = static_cast<Complex<T>*>(buffer.data());
  auto attempt = [&](OnChipShape s, FlowGraphTunables t) { fft::launch_onchip_fft<T>(x, x, s, t, stream.get()); };
  EXPECT_THROW(attempt(contiguous(48, 1), variant(8, true)), gridflow::Error) << "not a power of two";
  EXPECT_THROW(attempt(contiguous(2 * fft::max_onchip_length<T>(), 1), variant(8, true)), gridflow::Error) << "too long";
  EXPECT_THROW(attempt(contiguous(64, 1), variant(3, true)), gridflow::Error) << "radix 3";
  EXPECT_THROW(attempt(contiguous(4096, 4), variant(2, true, 2)), gridflow::Error) << "2048 threads per block";
  auto uneven = interleaved(64, 6);
  uneven.inner_lines = 4;
  EXPECT_THROW(attempt(uneven, variant(8, true)), gridflow::Error) << "inner_lines not dividing the batch";
  auto sign = contiguous(64, 1);
  sign.sign = 2;
  EXPECT_THROW(attempt(sign, variant(8, true)), gridflow::Error) << "sign 2";
  auto other = variant(8, true);
  other.kernel = FlowGraphTunables::Kernel::radix2_table;
  EXPECT_THROW(attempt(contiguous(64, 1), other), gridflow::Error) << "another kernel";
  EXPECT_THROW(attempt(contiguous(64, 1), lines_variant(8, true, 3, false)), gridflow::Error) << "3 planes";
  EXPECT_THROW(attempt(contiguous(64, 1), lines_variant(8, true, 0, true)), gridflow::Error) << "staged, general kernel";
  EXPECT_THROW(attempt(contiguous(4096, 4), lines_variant(16, true, 1, false, 2)), gridflow::Error)
      << "512 threads per block at radix 16";
  gridflow::mesh::synchronize(stream.get());
}

}  // namespace

#endif  // GRIDFLOW_HAVE_CUDA
