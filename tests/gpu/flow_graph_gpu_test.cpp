// The flow_graph device backend against FFTW in double on the host (relative L2 error: float
// 1e-5, double 1e-12): the seed's radix2_table kernel for every power of two 1..4096 both ways,
// and bitwise against the host_flow_graph oracle there;
// every FlowGraphTunables candidate on one-pass and four-step lengths; four-step lengths
// 8192..2^22 and 2^24 once; r2c / c2r from n = 1 up, through the one-pass and four-step complex
// transform; strided, interleaved, padded, in-place and misaligned layouts (a plan must write its
// output lines and nothing else); inverse(forward(x)) = n x on the device; refusals of bad input.
// Failure messages name the layout, the variant and the error.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "flow_graph_test_support.hpp"
#include "gpu_test_support.hpp"
#include "kernels/fft/fft_plan.hpp"
#include "kernels/fft/flow_graph_tunables.hpp"
#include "mesh/check.hpp"
#include "mesh/device.hpp"
#include "typed_cases.hpp"

namespace {

namespace fft = gridflow::kernels::fft;
namespace gt = gridflow::testing;
using fft::FftBackend;
using fft::FftDirection;
using fft::FftKind;
using fft::FftLayout;
using fft::FlowGraphTunables;
using gridflow::mesh::Buffer;
using gridflow::mesh::MemorySpace;

template <class T>
class FlowGraphGpu : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(FlowGraphGpu, Precisions);

#define FLOW_GRAPH_GPU_CASE() \
  GRIDFLOW_REQUIRE_GPU();     \
  GRIDFLOW_ONE_RANK_CASE()

FftLayout layout_of(FftKind kind, FftDirection dir, std::int64_t n, std::int64_t batch) {
  FftLayout l;
  l.kind = kind;
  l.direction = kind == FftKind::c2c ? dir : kind == FftKind::r2c ? FftDirection::forward : FftDirection::inverse;
  l.n = n;
  l.batch = batch;
  return l;
}

/// One input and its reference, shared by every variant run on it.
template <class T>
struct Problem {
  Problem(const FftLayout& l, unsigned seed)
      : layout(l), x(gt::random_input_lines<T>(l, seed)), in(gt::input_buffer<T>(l, x, T(7))),
        reference(gt::fftw_reference(l, x)) {}
  FftLayout layout;
  gt::Lines x;
  std::vector<T> in;
  gt::Lines reference;
};

/// What one device run gave: the output buffer and its error against the reference.
template <class T>
struct Outcome {
  std::vector<T> out;
  double error = 1;
  std::int64_t changed_gaps = 0;
};

constexpr double fill = -3;

/// Plans `variant` for the problem's layout on the device, runs it once and compares. The real
/// operand of r2c / c2r starts `real_offset` elements of T past its allocation (1: not aligned
/// for complex access); complex operands stay aligned. in_place: the output is written over the
/// input (c2c with equal distances).
template <class T>
Outcome<T> run_on_device(const Problem<T>& p, const std::string& variant, std::int64_t real_offset = 0,
                      bool in_place = false) {
  const FftLayout& l = p.layout;
  const std::int64_t in_offset = l.kind == FftKind::r2c ? real_offset : 0;
  const std::int64_t out_offset = l.kind == FftKind::c2r ? real_offset : 0;
  gridflow::mesh::Stream stream;
  auto plan = fft::make_fft_plan<T>(l, MemorySpace::device, stream.get(), {FftBackend::flow_graph, variant});
  auto out = gt::output_buffer<T>(l, T(fill));
  Buffer din((p.in.size() + in_offset) * sizeof(T), MemorySpace::device);
  Buffer dout(in_place ? 0 : (out.size() + out_offset) * sizeof(T), MemorySpace::device);
  T* in_ptr = static_cast<T*>(din.data()) + in_offset;
  T* out_ptr = in_place ? in_ptr : static_cast<T*>(dout.data()) + out_offset;
  gridflow::mesh::copy_bytes(in_ptr, MemorySpace::device, p.in.data(), MemorySpace::host, p.in.size() * sizeof(T));
  if (!in_place)
    gridflow::mesh::copy_bytes(out_ptr, MemorySpace::device, out.data(), MemorySpace::host, out.size() * sizeof(T));
  plan->execute(static_cast<const void*>(in_ptr), static_cast<void*>(out_ptr));
  gridflow::mesh::synchronize(stream.get());
  gridflow::mesh::copy_bytes(out.data(), MemorySpace::host, out_ptr, MemorySpace::device, out.size() * sizeof(T));
  Outcome<T> o;
  o.error = gt::relative_l2_error(gt::output_lines(l, out), p.reference);
  if (!in_place) o.changed_gaps = gt::changed_output_gaps(l, out, T(fill));
  o.out = std::move(out);
  return o;
}

/// Runs and checks; the message names the layout, the variant and the error.
template <class T>
void expect_matches_fftw(const Problem<T>& p, const std::string& variant, std::int64_t real_offset = 0,
                         bool in_place = false) {
  const std::string what = gt::describe(p.layout) + " variant '" + (variant.empty() ? "(default)" : variant) + "'" +
                           (real_offset ? " real operand offset " + std::to_string(real_offset) : "") +
                           (in_place ? " in place" : "");
  try {
    const auto o = run_on_device(p, variant, real_offset, in_place);
    EXPECT_LE(o.error, gt::fft_tolerance<T>()) << what << ": relative L2 error " << o.error << " against FFTW";
    EXPECT_EQ(o.changed_gaps, 0) << what << ": wrote " << o.changed_gaps << " values outside its output lines";
  } catch (const std::exception& e) {
    ADD_FAILURE() << what << " threw: " << e.what();
  }
}

TYPED_TEST(FlowGraphGpu, Radix2TableKernelForEveryPowerOfTwoUpTo4096) {
  FLOW_GRAPH_GPU_CASE();
  using T = TypeParam;
  for (auto dir : {FftDirection::forward, FftDirection::inverse})
    for (std::int64_t n = 1; n <= 4096; n *= 2)
      expect_matches_fftw(Problem<T>(layout_of(FftKind::c2c, dir, n, std::max<std::int64_t>(3, (1 << 16) / n)), 1),
                          "radix2_table");
}

// The host oracle and the seed's kernel run the same tables, twiddle values and butterfly point
// function with no FMA contraction on either side (GRIDFLOW_STRICT_FP_*): one-pass c2c results
// agree to the bit.
TYPED_TEST(FlowGraphGpu, Radix2TableKernelIsBitwiseTheHostFlowGraph) {
  FLOW_GRAPH_GPU_CASE();
  using T = TypeParam;
  for (auto dir : {FftDirection::forward, FftDirection::inverse})
    for (std::int64_t n = 1; n <= 4096; n *= 2) {
      const Problem<T> p(layout_of(FftKind::c2c, dir, n, 3), 11);
      const auto device = run_on_device(p, "radix2_table");
      auto host = gt::output_buffer<T>(p.layout, T(fill));
      fft::make_fft_plan<T>(p.layout, MemorySpace::host, nullptr, {FftBackend::host_flow_graph, ""})
          ->execute(static_cast<const void*>(p.in.data()), static_cast<void*>(host.data()));
      ASSERT_EQ(device.out.size(), host.size());
      std::size_t differing = 0, first = 0;
      for (std::size_t i = host.size(); i-- > 0;)
        if (!gt::same_bits(device.out[i], host[i])) ++differing, first = i;
      EXPECT_EQ(differing, 0u) << gt::describe(p.layout) << ": " << differing << " scalars differ from host_flow_graph"
                               << (differing ? ", the first at " + std::to_string(first) + ": device " +
                                                   std::to_string(device.out[first]) + ", host " +
                                                   std::to_string(host[first])
                                             : std::string());
    }
}

TYPED_TEST(FlowGraphGpu, EveryCandidateVariantOnOnePassAndFourStepLengths) {
  FLOW_GRAPH_GPU_CASE();
  using T = TypeParam;
  for (std::int64_t n : {2, 4, 16, 256, 1024, 4096, 8192, 1 << 16})
    for (auto dir : {FftDirection::forward, FftDirection::inverse}) {
      const Problem<T> p(layout_of(FftKind::c2c, dir, n, 3), 2);
      const auto candidates = FlowGraphTunables::candidates(n, sizeof(T) == 8);
      EXPECT_FALSE(candidates.empty()) << "n=" << n;
      for (const auto& c : candidates) expect_matches_fftw(p, c.to_string());
    }
}

TYPED_TEST(FlowGraphGpu, FourStepLengthsUpTo2To22) {
  FLOW_GRAPH_GPU_CASE();
  using T = TypeParam;
  for (std::int64_t n = 8192; n <= (1 << 22); n *= 2)
    for (auto dir : {FftDirection::forward, FftDirection::inverse}) {
      const Problem<T> p(layout_of(FftKind::c2c, dir, n, n <= (1 << 18) ? 3 : 1), 3);
      for (const char* variant : {"radix2_table", ""}) expect_matches_fftw(p, variant);
    }
}

TYPED_TEST(FlowGraphGpu, TheLongestLength2To24) {
  FLOW_GRAPH_GPU_CASE();
  using T = TypeParam;
  const Problem<T> p(layout_of(FftKind::c2c, FftDirection::forward, 1 << 24, 1), 4);
  for (const char* variant : {"radix2_table", ""}) expect_matches_fftw(p, variant);
}

TYPED_TEST(FlowGraphGpu, RealTransformsThroughTheHalfLengthComplexTransform) {
  FLOW_GRAPH_GPU_CASE();
  using T = TypeParam;
  // n = 1 and 2 are the edge cases of the split; 8192 the longest one-pass half length (4096);
  // 16384 and up go four-step.
  for (auto kind : {FftKind::r2c, FftKind::c2r})
    for (std::int64_t n : {1, 2, 4, 8, 64, 1024, 8192, 16384, 1 << 17, 1 << 20, 1 << 24}) {
      const Problem<T> p(layout_of(kind, FftDirection::forward, n, n <= 4096 ? 5 : 1), 5);
      for (const char* variant : {"radix2_table", ""}) expect_matches_fftw(p, variant);
    }
}

TYPED_TEST(FlowGraphGpu, StridedInterleavedPaddedInPlaceAndMisalignedLayouts) {
  FLOW_GRAPH_GPU_CASE();
  using T = TypeParam;
  for (auto kind : {FftKind::c2c, FftKind::r2c, FftKind::c2r})
    for (std::int64_t n : {2, 64, 4096, 16384})
      for (const char* variant : {"radix2_table", ""}) {
        auto l = layout_of(kind, FftDirection::inverse, n, 4);
        // Strided with gaps between lines; odd distances keep real lines from being viewed as complex.
        l.stride = 3;
        l.in_distance = 3 * l.in_line_elements() + 5;
        l.out_distance = 3 * l.out_line_elements() + 3;
        expect_matches_fftw(Problem<T>(l, 6), variant);
        // Interleaved: element j of line b at j * batch + b.
        l.stride = l.batch;
        l.in_distance = l.out_distance = 1;
        expect_matches_fftw(Problem<T>(l, 7), variant);
        // Unit stride, padded lines of even distance (real lines viewed as complex directly) ...
        l.stride = 1;
        l.in_distance = l.in_line_elements() + 6;
        l.out_distance = l.out_line_elements() + 2;
        const Problem<T> padded(l, 8);
        expect_matches_fftw(padded, variant);
        // ... and the real operand one element off: then it is not aligned for complex access.
        if (kind != FftKind::c2c) expect_matches_fftw(padded, variant, 1);
        if (kind == FftKind::c2c) {
          l.out_distance = l.in_distance;
          expect_matches_fftw(Problem<T>(l, 9), variant, 0, true);
        }
      }
}

template <class T>
std::vector<T> device_round_trip(const FftLayout& forward, const FftLayout& inverse, const std::vector<T>& in,
                                 const std::string& variant) {
  gridflow::mesh::Stream stream;
  auto fw = fft::make_fft_plan<T>(forward, MemorySpace::device, stream.get(), {FftBackend::flow_graph, variant});
  auto inv = fft::make_fft_plan<T>(inverse, MemorySpace::device, stream.get(), {FftBackend::flow_graph, variant});
  const std::size_t mid_scalars = forward.out_elements() * 2;  // complex either way
  std::vector<T> out(in.size());
  Buffer a(in.size() * sizeof(T), MemorySpace::device), b(mid_scalars * sizeof(T), MemorySpace::device),
      c(in.size() * sizeof(T), MemorySpace::device);
  gridflow::mesh::copy_bytes(a.data(), MemorySpace::device, in.data(), MemorySpace::host, in.size() * sizeof(T));
  fw->execute(static_cast<const void*>(a.data()), b.data());
  inv->execute(static_cast<const void*>(b.data()), c.data());
  gridflow::mesh::synchronize(stream.get());
  gridflow::mesh::copy_bytes(out.data(), MemorySpace::host, c.data(), MemorySpace::device, out.size() * sizeof(T));
  return out;
}

TYPED_TEST(FlowGraphGpu, InverseOfForwardIsNTimesTheInput) {
  FLOW_GRAPH_GPU_CASE();
  using T = TypeParam;
  for (std::int64_t n : {256, 1 << 16})
    for (const char* variant : {"radix2_table", ""})
      for (bool real : {false, true}) {
        const auto fw = layout_of(real ? FftKind::r2c : FftKind::c2c, FftDirection::forward, n, 2);
        const auto inv = layout_of(real ? FftKind::c2r : FftKind::c2c, FftDirection::inverse, n, 2);
        const auto x = gt::random_input_lines<T>(fw, 10);
        try {
          const auto y = device_round_trip<T>(fw, inv, gt::input_buffer<T>(fw, x), variant);
          gt::Lines nx = x;
          for (auto& v : nx) v *= double(n);
          const double error = gt::relative_l2_error(gt::output_lines(inv, y), nx);
          EXPECT_LE(error, gt::fft_tolerance<T>()) << (real ? "c2r(r2c(x))" : "inverse(forward(x))") << " n=" << n
                                                   << " variant '" << variant << "': relative L2 error " << error;
        } catch (const std::exception& e) {
          ADD_FAILURE() << "round trip n=" << n << " variant '" << variant << "' threw: " << e.what();
        }
      }
}

TEST(FlowGraphGpuPlan, RefusesWhatItCannotPlanNamingWhy) {
  FLOW_GRAPH_GPU_CASE();
  gridflow::mesh::Stream stream;
  const auto plan = [&](std::int64_t n, const std::string& variant) {
    return fft::make_fft_plan<float>(layout_of(FftKind::c2c, FftDirection::forward, n, 1), MemorySpace::device,
                                     stream.get(), {FftBackend::flow_graph, variant});
  };
  const std::tuple<std::int64_t, std::string, std::string> bad[] = {
      {12, "radix2_table", "12"}, {1 << 25, "radix2_table", std::to_string(1 << 25)}, {64, "onchip/r5/l1/tw1", "radix 5"},
      {64, "radix3_table", "radix3_table"}};
  for (const auto& [n, variant, expected] : bad) {
    try {
      plan(n, variant);
      ADD_FAILURE() << "n=" << n << " variant '" << variant << "' was planned";
    } catch (const gridflow::Error& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos)
          << "n=" << n << " variant '" << variant << "': '" << e.what() << "' does not name " << expected;
    }
  }
}

}  // namespace
