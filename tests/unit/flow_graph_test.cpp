// The flow-graph FFT on the host: the tables' structure (every position once per stage, exponents
// in range, bit reversal), the host_flow_graph backend against the direct sum in long double
// (short lines) and FFTW in double (every power of two 2..2^20), c2c both ways, r2c, c2r, strided,
// interleaved and in-place layouts, inverse(forward(x)) = n x; and the variant strings of
// FlowGraphTunables.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <string>

#include "flow_graph_test_support.hpp"
#include "kernels/fft/fft_plan.hpp"
#include "kernels/fft/flow_graph.hpp"
#include "kernels/fft/flow_graph_passes.hpp"
#include "kernels/fft/flow_graph_lines_cuda.hpp"
#include "kernels/fft/flow_graph_onchip_launch.hpp"
#include "kernels/fft/flow_graph_tunables.hpp"
#include "mesh/check.hpp"

namespace {

namespace fft = gridflow::kernels::fft;
using fft::FftBackend;
using fft::FftDirection;
using fft::FftKind;
using fft::FftLayout;
using fft::FlowGraphPasses;
using fft::FlowGraphTunables;
using gridflow::mesh::MemorySpace;
namespace gt = gridflow::testing;

TEST(FlowGraphTables, EveryPositionOncePerStageWithExponentsInRange) {
  for (std::int64_t n = 1; n <= (1 << 16); n *= 2) {
    const auto g = fft::make_flow_graph(n);
    ASSERT_EQ(std::int64_t(1) << g.stages, n);
    ASSERT_EQ(g.pairs.size(), std::size_t(g.stages * n));
    ASSERT_EQ(g.twiddles.size(), std::size_t(g.stages * (n / 2)));
    for (int s = 0; s < g.stages; ++s) {
      std::vector<int> seen(n, 0);
      for (std::int64_t t = 0; t < n / 2; ++t) {
        const auto a = g.stage_pairs(s)[2 * t], b = g.stage_pairs(s)[2 * t + 1];
        ASSERT_TRUE(a >= 0 && a < n && b >= 0 && b < n) << "n=" << n << " stage " << s << " butterfly " << t;
        ++seen[a];
        ++seen[b];
        EXPECT_EQ(b - a, 1 << s) << "n=" << n << " stage " << s << " butterfly " << t;
        const auto k = g.stage_twiddles(s)[t];
        EXPECT_TRUE(k >= 0 && k < std::max<std::int64_t>(1, n / 2)) << "n=" << n << " stage " << s << " k=" << k;
        // Stage s is a radix-2 step of length 2^(s+1): its exponents are multiples of n / 2^(s+1).
        EXPECT_EQ(k % (n >> (s + 1)), 0) << "n=" << n << " stage " << s << " k=" << k;
      }
      EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](int c) { return c == 1; }))
          << "n=" << n << " stage " << s << ": a position is not used exactly once";
    }
    std::vector<std::int32_t> sorted = g.input_order;
    std::sort(sorted.begin(), sorted.end());
    std::vector<std::int32_t> identity(n);
    std::iota(identity.begin(), identity.end(), 0);
    EXPECT_EQ(sorted, identity) << "n=" << n << ": input order is not a permutation";
    for (std::int64_t p = 0; p < n; ++p)
      ASSERT_EQ(g.input_order[g.input_order[p]], p) << "n=" << n << ": bit reversal is its own inverse";
  }
}

TEST(FlowGraphTables, TwiddleValuesLieOnTheUnitCircleWithTheRightSign) {
  const std::int64_t n = 1024;
  const auto fw = fft::flow_graph_twiddle_values<double>(n, -1);
  const auto inv = fft::flow_graph_twiddle_values<double>(n, +1);
  ASSERT_EQ(fw.size(), std::size_t(n));
  for (std::int64_t k = 0; k < n / 2; ++k) {
    EXPECT_NEAR(std::hypot(fw[2 * k], fw[2 * k + 1]), 1.0, 1e-15) << "k=" << k;
    EXPECT_EQ(fw[2 * k], inv[2 * k]) << "k=" << k;
    EXPECT_EQ(fw[2 * k + 1], -inv[2 * k + 1]) << "k=" << k;
  }
  EXPECT_EQ(fw[2 * (n / 4) + 1], -1.0);  // W^(n/4) = -i forward
}

TEST(FlowGraphTables, RejectNonPowersOfTwo) {
  for (std::int64_t n : {0, -4, 3, 12, 1000}) {
    try {
      fft::make_flow_graph(n);
      ADD_FAILURE() << "n=" << n << " was accepted";
    } catch (const gridflow::Error& e) {
      EXPECT_NE(std::string(e.what()).find(std::to_string(n)), std::string::npos) << e.what();
    }
  }
}

template <class T>
class HostFlowGraph : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(HostFlowGraph, Precisions);

template <class T>
std::unique_ptr<fft::FftPlan<T>> host_plan(const FftLayout& l) {
  return fft::make_fft_plan<T>(l, MemorySpace::host, nullptr, {FftBackend::host_flow_graph, ""});
}

/// Runs the host_flow_graph plan of `l` on random input and returns its relative L2 error against
/// `reference` (fftw_reference or direct_reference); also fails the test if the plan wrote
/// outside its output lines.
template <class T, class Reference>
double host_error(const FftLayout& l, Reference reference, unsigned seed = 1) {
  const auto x = gt::random_input_lines<T>(l, seed);
  auto in = gt::input_buffer<T>(l, x, T(7));
  const T fill = T(-3);
  auto out = gt::output_buffer<T>(l, fill);
  host_plan<T>(l)->execute(static_cast<const void*>(in.data()), static_cast<void*>(out.data()));
  EXPECT_EQ(gt::changed_output_gaps(l, out, fill), 0) << gt::describe(l) << ": wrote outside its output lines";
  return gt::relative_l2_error(gt::output_lines(l, out), reference(l, x));
}

FftLayout layout_of(FftKind kind, FftDirection dir, std::int64_t n, std::int64_t batch) {
  FftLayout l;
  l.kind = kind;
  l.direction = dir;
  l.n = n;
  l.batch = batch;
  return l;
}

const std::pair<FftKind, FftDirection> every_kind[] = {{FftKind::c2c, FftDirection::forward},
                                                       {FftKind::c2c, FftDirection::inverse},
                                                       {FftKind::r2c, FftDirection::forward},
                                                       {FftKind::c2r, FftDirection::inverse}};

TYPED_TEST(HostFlowGraph, EveryKindMatchesTheDirectSumForShortLines) {
  using T = TypeParam;
  for (auto [kind, dir] : every_kind)
    for (std::int64_t n = 1; n <= 128; n *= 2) {
      const auto l = layout_of(kind, dir, n, 3);
      EXPECT_LE(host_error<T>(l, gt::direct_reference), gt::fft_tolerance<T>()) << gt::describe(l);
    }
}

TYPED_TEST(HostFlowGraph, EveryKindMatchesFftwForEveryPowerOfTwoUpTo2To20) {
  using T = TypeParam;
  for (auto [kind, dir] : every_kind)
    for (std::int64_t n = 2; n <= (1 << 20); n *= 2) {
      const auto l = layout_of(kind, dir, n, std::max<std::int64_t>(1, (1 << 14) / n));
      EXPECT_LE(host_error<T>(l, gt::fftw_reference), gt::fft_tolerance<T>()) << gt::describe(l);
    }
}

TYPED_TEST(HostFlowGraph, StridedLayoutsWithGapsBetweenLines) {
  using T = TypeParam;
  for (auto kind : {FftKind::c2c, FftKind::r2c, FftKind::c2r})
    for (std::int64_t n : {1, 2, 8, 64, 1024}) {
      auto l = layout_of(kind, kind == FftKind::c2r ? FftDirection::inverse : FftDirection::forward, n, 4);
      l.stride = 3;
      l.in_distance = 3 * l.in_line_elements() + 5;
      l.out_distance = 3 * l.out_line_elements() + 2;
      EXPECT_LE(host_error<T>(l, gt::fftw_reference), gt::fft_tolerance<T>()) << gt::describe(l);
      // Interleaved lines: element j of line b at j * batch + b.
      l.stride = l.batch;
      l.in_distance = l.out_distance = 1;
      EXPECT_LE(host_error<T>(l, gt::fftw_reference), gt::fft_tolerance<T>()) << gt::describe(l);
    }
}

TYPED_TEST(HostFlowGraph, InPlaceComplexTransform) {
  using T = TypeParam;
  auto l = layout_of(FftKind::c2c, FftDirection::forward, 128, 3);
  l.stride = 2;
  const auto x = gt::random_input_lines<T>(l, 5);
  auto buf = gt::input_buffer<T>(l, x);
  auto* p = reinterpret_cast<fft::Complex<T>*>(buf.data());
  host_plan<T>(l)->execute(p, p);
  EXPECT_LE(gt::relative_l2_error(gt::output_lines(l, buf), gt::fftw_reference(l, x)), gt::fft_tolerance<T>());
}

TYPED_TEST(HostFlowGraph, InverseOfForwardIsNTimesTheInput) {
  using T = TypeParam;
  for (std::int64_t n : {2, 16, 1024, 1 << 16}) {
    const auto fw = layout_of(FftKind::c2c, FftDirection::forward, n, 2);
    const auto inv = layout_of(FftKind::c2c, FftDirection::inverse, n, 2);
    const auto x = gt::random_input_lines<T>(fw, 9);
    auto a = gt::input_buffer<T>(fw, x);
    auto b = gt::output_buffer<T>(fw, T(0));
    auto c = gt::output_buffer<T>(fw, T(0));
    host_plan<T>(fw)->execute(static_cast<const void*>(a.data()), static_cast<void*>(b.data()));
    host_plan<T>(inv)->execute(static_cast<const void*>(b.data()), static_cast<void*>(c.data()));
    gt::Lines nx = x;
    for (auto& v : nx) v *= double(n);
    EXPECT_LE(gt::relative_l2_error(gt::output_lines(inv, c), nx), gt::fft_tolerance<T>()) << "n=" << n;

    // The real pair: c2r(r2c(x)) = n x.
    const auto r2c = layout_of(FftKind::r2c, FftDirection::forward, n, 2);
    const auto c2r = layout_of(FftKind::c2r, FftDirection::inverse, n, 2);
    const auto xr = gt::random_input_lines<T>(r2c, 10);
    auto ra = gt::input_buffer<T>(r2c, xr);
    auto rb = gt::output_buffer<T>(r2c, T(0));
    auto rc = gt::output_buffer<T>(c2r, T(0));
    host_plan<T>(r2c)->execute(static_cast<const void*>(ra.data()), static_cast<void*>(rb.data()));
    host_plan<T>(c2r)->execute(static_cast<const void*>(rb.data()), static_cast<void*>(rc.data()));
    gt::Lines nxr = xr;
    for (auto& v : nxr) v *= double(n);
    EXPECT_LE(gt::relative_l2_error(gt::output_lines(c2r, rc), nxr), gt::fft_tolerance<T>()) << "real n=" << n;
  }
}

TEST(HostFlowGraphPlan, RefusesLengthsThatAreNotPowersOfTwo) {
  auto l = layout_of(FftKind::c2c, FftDirection::forward, 12, 1);
  EXPECT_THROW(host_plan<double>(l), gridflow::Error);
}

TEST(FlowGraphTunablesTest, VariantStringsRoundTrip) {
  for (long long n = 2; n <= (1LL << 24); n *= 2)
    for (bool dp : {false, true})
      for (const auto& t : FlowGraphTunables::candidates(n, dp)) {
        const auto s = t.to_string();
        const auto back = FlowGraphTunables::parse(s);
        EXPECT_EQ(back.to_string(), s);
        EXPECT_EQ(back.kernel, t.kernel) << s;
        EXPECT_EQ(back.radix, t.radix) << s;
        EXPECT_EQ(back.lines_per_block, t.lines_per_block) << s;
        EXPECT_EQ(back.twiddle_table, t.twiddle_table) << s;
        EXPECT_EQ(back.passes, t.passes) << s;
        EXPECT_EQ(back.planes, t.planes) << s;
        EXPECT_EQ(back.staged, t.staged) << s;
      }
  const auto t = FlowGraphTunables::parse("onchip/r16/l2/tw0");
  EXPECT_EQ(t.kernel, FlowGraphTunables::Kernel::onchip);
  EXPECT_EQ(t.radix, 16);
  EXPECT_EQ(t.lines_per_block, 2);
  EXPECT_FALSE(t.twiddle_table);
  EXPECT_EQ(t.passes, 0);
  EXPECT_EQ(FlowGraphTunables::parse("onchip/r8/l0/tw1/p3").passes, 3);
  EXPECT_EQ(FlowGraphTunables::parse("radix2_table").kernel, FlowGraphTunables::Kernel::radix2_table);
  EXPECT_EQ(t.planes, 0);
  EXPECT_FALSE(t.staged);
  const auto lines = FlowGraphTunables::parse("onchip/r16/l1/tw1/e1/s1");
  EXPECT_EQ(lines.planes, 1);
  EXPECT_TRUE(lines.staged);
  EXPECT_EQ(lines.radix, 16);
  EXPECT_EQ(FlowGraphTunables::parse("onchip/r8/l0/tw0/e2").planes, 2);
  EXPECT_FALSE(FlowGraphTunables::parse("onchip/r8/l0/tw0/e2").staged);
  EXPECT_EQ(FlowGraphTunables::parse("onchip/r8/l0/tw0/p2/e2").passes, 2);
}

TEST(FlowGraphTunablesTest, ParseNamesTheBadPart) {
  const std::pair<const char*, const char*> bad[] = {
      {"", "unknown kernel"},          {"radix2", "'radix2'"},      {"onchip", "1 parts"},
      {"onchip/r8/l4", "3 parts"},     {"onchip/r3/l4/tw1", "radix 3"}, {"onchip/x8/l4/tw1", "'x8'"},
      {"onchip/r8/lots/tw1", "'lots'"}, {"onchip/r8/l4/tw2", "'tw2'"},  {"onchip/r8/l-1/tw1", "'l-1'"},
      {"onchip/r8/l4/tw1/x", "'x'"},    {"onchip/r8/l4/tw1/p4", "'p4'"}, {"onchip/r8/l4/tw1/p1", "'p1'"},
      {"onchip/r8/l4/tw1/p2/x", "'x'"},  {"onchip/r8/l4/tw1/e3", "'e3'"}, {"onchip/r8/l4/tw1/e0", "'e0'"},
      {"onchip/r8/l4/tw1/s1", "'s1'"},   {"onchip/r8/l4/tw1/e1/s2", "'s2'"}, {"onchip/r8/l4/tw1/e1/p2", "'p2'"},
      {"onchip/r8/l4/tw1/e1/s1/s1", "'s1'"}, {"onchip/r8/l4/tw1/p2/e1/s1/x", "8 parts"}};
  for (auto [variant, expected] : bad) {
    try {
      FlowGraphTunables::parse(variant);
      ADD_FAILURE() << "'" << variant << "' was accepted";
    } catch (const gridflow::Error& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos)
          << "'" << variant << "': " << e.what() << " does not say " << expected;
    }
  }
}

// The plan's untuned one-launch variant is the contiguous-lines kernel at a shape its launcher
// takes: a radix within the line (the plan clamps it to n), lines of whole blocks it allows, and
// one of the tuner's candidates wherever the candidates list explicit lines.
TEST(FlowGraphTunablesTest, OnePassDefaultIsALaunchableContiguousLinesVariant) {
  for (long long n = 2; n <= 4096; n *= 2)
    for (bool dp : {false, true}) {
      auto t = FlowGraphTunables::one_pass_default(n, dp);
      EXPECT_EQ(t.kernel, FlowGraphTunables::Kernel::onchip) << n;
      EXPECT_TRUE(t.planes == 1 || t.planes == 2) << t.to_string() << " n=" << n;
      EXPECT_EQ(t.passes, 0) << t.to_string();
      EXPECT_EQ(FlowGraphTunables::parse(t.to_string()).to_string(), t.to_string());
      t.radix = static_cast<int>(std::min<long long>(t.radix, n));
      const int per_line = static_cast<int>(n) / gridflow::kernels::fft::onchip::registers_per_thread(static_cast<int>(n), t.radix);
      EXPECT_LE(t.lines_per_block * per_line, gridflow::kernels::fft::onchip::lines_max_threads(static_cast<int>(n), t.radix))
          << t.to_string() << " n=" << n;
      if (t.lines_per_block == 0) continue;
      const auto c = FlowGraphTunables::candidates(n, dp);
      EXPECT_TRUE(std::any_of(c.begin(), c.end(), [&](const FlowGraphTunables& o) { return o.to_string() == t.to_string(); }))
          << t.to_string() << " n=" << n << " is not a candidate";
    }
}

TEST(FlowGraphTunablesTest, CandidatesFitABlockAndIncludeTheSeedKernel) {
  for (long long n = 2; n <= (1LL << 24); n *= 2)
    for (bool dp : {false, true}) {
      const auto c = FlowGraphTunables::candidates(n, dp);
      ASSERT_FALSE(c.empty()) << "n=" << n;
      EXPECT_EQ(c.front().kernel, FlowGraphTunables::Kernel::radix2_table) << "n=" << n;
      for (const auto& t : c) {
        if (t.kernel != FlowGraphTunables::Kernel::onchip) continue;
        EXPECT_EQ(t.passes != 0, n > 4096) << t.to_string() << " n=" << n;
        const auto split = FlowGraphPasses::for_length(n, 4096, t.passes);
        const long long pass = split.longest();
        EXPECT_LE(t.radix, split.shortest()) << t.to_string() << " n=" << n;
        EXPECT_LE(t.lines_per_block * pass / t.radix, 1024) << t.to_string() << " n=" << n;
        EXPECT_LE(t.lines_per_block * pass * (dp ? 16 : 8), 227 * 1024) << t.to_string() << " n=" << n;
        if (t.planes) {  // the contiguous-lines kernel: one launch, at most 256 threads or one line
          EXPECT_EQ(t.passes, 0) << t.to_string() << " n=" << n;
          EXPECT_TRUE(t.planes == 1 || t.planes == 2) << t.to_string();
          EXPECT_LE(t.lines_per_block * pass / t.radix, std::max<long long>(256, pass / t.radix)) << t.to_string() << " n=" << n;
        } else {
          EXPECT_FALSE(t.staged) << t.to_string();
        }
      }
      if (n >= 16) {
        const bool has_onchip = std::any_of(c.begin(), c.end(), [](const FlowGraphTunables& t) {
          return t.kernel == FlowGraphTunables::Kernel::onchip;
        });
        EXPECT_TRUE(has_onchip) << "n=" << n << (dp ? " double" : " float");
      }
    }
  EXPECT_TRUE(FlowGraphTunables::candidates(1, false).empty());
}

}  // namespace
