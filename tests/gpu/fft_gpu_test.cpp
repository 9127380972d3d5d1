// The device FFT backends against FFTW on the same input: cufft and flow_graph, float and double,
// c2c both ways, r2c and c2r, every power of two 2..2^20 (cufft: mixed lengths too, which
// flow_graph refuses), lines contiguous, interleaved and padded (long lengths contiguous only, to
// keep the suite short). Bounds: relative L2 error 1e-5 (float) / 1e-12 (double), and flow_graph
// no worse than twice cuFFT's own error against FFTW on that input. Then inverse(forward(x)) =
// n x on the device, the inverse in place. Last, the tuned choice among the device backends.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "autotune/fft_tuning.hpp"
#include "fft_test_support.hpp"
#include "gpu_test_support.hpp"
#include "kernels/fft/fft_plan.hpp"
#include "mesh/check.hpp"
#include "mesh/device.hpp"

namespace {

using gridflow::kernels::fft::Complex;
using gridflow::kernels::fft::FftBackend;
using gridflow::kernels::fft::FftDirection;
using gridflow::kernels::fft::FftKind;
using gridflow::kernels::fft::FftLayout;
using gridflow::kernels::fft::FftPlan;
using gridflow::kernels::fft::FftTunables;
using gridflow::kernels::fft::make_fft_plan;
using gridflow::mesh::MemorySpace;
namespace support = gridflow::testing;

template <class T>
class FftGpu : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(FftGpu, Precisions);

template <class T>
double tolerance() {
  return sizeof(T) == 4 ? 1e-5 : 1e-12;
}

std::vector<std::int64_t> lengths(FftBackend backend) {
  std::vector<std::int64_t> n;
  for (int p = 1; p <= 20; ++p) n.push_back(std::int64_t(1) << p);
  if (backend == FftBackend::cufft)
    for (std::int64_t mixed : {3, 5, 12, 100, 257, 1000, 1155, 4095, 65537, 3 << 17}) n.push_back(mixed);
  return n;
}

// About 2^17 points per case: many lines of short transforms, one line of the longest.
std::int64_t batch_for(std::int64_t n) { return std::clamp<std::int64_t>((std::int64_t(1) << 17) / n, 1, 16); }

struct Transform {
  FftKind kind;
  FftDirection direction;
};
const Transform transforms[] = {{FftKind::c2c, FftDirection::forward},
                                {FftKind::c2c, FftDirection::inverse},
                                {FftKind::r2c, FftDirection::forward},
                                {FftKind::c2r, FftDirection::inverse}};

// Contiguous lines; for lengths up to 4096 also interleaved (stride = batch, distance 1) and
// padded (stride 2, distances longer than a line).
std::vector<FftLayout> arrangements(std::int64_t n, Transform t) {
  FftLayout contiguous;
  contiguous.n = n;
  contiguous.batch = batch_for(n);
  contiguous.kind = t.kind;
  contiguous.direction = t.direction;
  if (n > 4096) return {contiguous};
  FftLayout interleaved = contiguous, padded = contiguous;
  interleaved.stride = interleaved.batch;
  interleaved.in_distance = interleaved.out_distance = 1;
  padded.stride = 2;
  padded.in_distance = 2 * contiguous.in_line_elements() + 3;
  padded.out_distance = 2 * contiguous.out_line_elements() + 5;
  return {contiguous, interleaved, padded};
}

std::string describe(const FftLayout& l, FftBackend backend) {
  const char* kind = l.kind == FftKind::c2c ? "c2c" : l.kind == FftKind::r2c ? "r2c" : "c2r";
  return to_string(backend) + " " + kind + (l.direction == FftDirection::forward ? " forward" : " inverse") +
         " n=" + std::to_string(l.n) + " batch=" + std::to_string(l.batch) + " stride=" + std::to_string(l.stride) +
         " distances=" + std::to_string(l.in_distance) + "," + std::to_string(l.out_distance);
}

// Random input for `l`; a c2r input is made a valid half spectrum (bins 0 and n/2 real), so that
// the comparison does not depend on how a backend treats the parts the transform ignores.
template <class In>
std::vector<In> random_input(const FftLayout& l, unsigned seed) {
  auto in = support::random_values<In>(static_cast<std::size_t>(l.in_elements()), seed);
  if constexpr (!std::is_arithmetic_v<In>) {
    if (l.kind == FftKind::c2r)
      for (std::int64_t b = 0; b < l.batch; ++b) {
        in[b * l.resolved_in_distance()].im = 0;
        if (l.n % 2 == 0) in[b * l.resolved_in_distance() + (l.n / 2) * l.stride].im = 0;
      }
  }
  return in;
}

template <class T>
std::unique_ptr<FftPlan<T>> device_plan(const FftLayout& l, FftBackend backend, gridflow::StreamHandle stream) {
  return make_fft_plan<T>(l, MemorySpace::device, stream, FftTunables{backend, ""});
}

// Copies `in` to the device, runs the plan out of place into a zeroed buffer of `out_count`
// elements (in place when `in_place`), and brings the output back.
template <class Out, class In, class T>
std::vector<Out> execute_on_device(FftPlan<T>& plan, const std::vector<In>& in, std::size_t out_count,
                                   gridflow::StreamHandle stream, bool in_place = false) {
  using gridflow::mesh::Buffer;
  Buffer input(in.size() * sizeof(In), MemorySpace::device);
  Buffer output(in_place ? 0 : out_count * sizeof(Out), MemorySpace::device);
  gridflow::mesh::copy_bytes(input.data(), MemorySpace::device, in.data(), MemorySpace::host, input.bytes());
  if (!in_place) gridflow::mesh::zero_device_bytes(output.data(), output.bytes());
  void* out = in_place ? input.data() : output.data();
  plan.execute(static_cast<const In*>(input.data()), static_cast<Out*>(out));
  gridflow::mesh::synchronize(stream);
  std::vector<Out> result(out_count);
  gridflow::mesh::copy_bytes(result.data(), MemorySpace::host, out, MemorySpace::device, out_count * sizeof(Out));
  return result;
}

template <class T, class In, class Out>
void check_against_fftw(const FftLayout& l, FftBackend backend, gridflow::StreamHandle stream) {
  SCOPED_TRACE(describe(l, backend));
  const auto in = random_input<In>(l, static_cast<unsigned>(l.n + 7 * l.batch));
  const auto out_count = static_cast<std::size_t>(l.out_elements());
  std::vector<Out> reference(out_count, Out{});
  auto fftw_input = in;  // FFTW's c2r overwrites its input
  make_fft_plan<T>(l, MemorySpace::host, nullptr, FftTunables{FftBackend::fftw, ""})
      ->execute(fftw_input.data(), reference.data());

  const auto by_cufft = execute_on_device<Out>(*device_plan<T>(l, FftBackend::cufft, stream), in, out_count, stream);
  const double cufft_error = support::relative_l2_error(by_cufft, reference);
  if (backend == FftBackend::cufft) {
    EXPECT_LE(cufft_error, tolerance<T>());
    return;
  }
  const auto got = execute_on_device<Out>(*device_plan<T>(l, backend, stream), in, out_count, stream);
  const double error = support::relative_l2_error(got, reference);
  EXPECT_LE(error, tolerance<T>());
  // Where cuFFT is exact (the shortest lengths), allow one rounding rather than none.
  EXPECT_LE(error, std::max(2 * cufft_error, static_cast<double>(std::numeric_limits<T>::epsilon())))
      << "cuFFT's own error " << cufft_error;
}

template <class T>
void check_every_supported_layout_against_fftw(FftBackend backend) {
  gridflow::mesh::Stream stream;
  for (auto n : lengths(backend))
    for (auto t : transforms)
      for (const auto& l : arrangements(n, t)) {
        if (!supports(backend, l)) continue;
        if (l.kind == FftKind::c2c) check_against_fftw<T, Complex<T>, Complex<T>>(l, backend, stream.get());
        if (l.kind == FftKind::r2c) check_against_fftw<T, T, Complex<T>>(l, backend, stream.get());
        if (l.kind == FftKind::c2r) check_against_fftw<T, Complex<T>, T>(l, backend, stream.get());
      }
}

// c2c forward then inverse in place, and r2c then c2r, against n x.
template <class T>
void check_round_trips(FftBackend backend) {
  gridflow::mesh::Stream stream;
  for (auto n : lengths(backend)) {
    SCOPED_TRACE(to_string(backend) + " n=" + std::to_string(n));
    FftLayout forward;
    forward.n = n;
    forward.batch = batch_for(n);
    auto inverse = forward;
    inverse.direction = FftDirection::inverse;
    const auto x = support::random_values<Complex<T>>(static_cast<std::size_t>(forward.in_elements()), 11);
    auto scaled = x;
    for (auto& v : scaled) v = {v.re * static_cast<T>(n), v.im * static_cast<T>(n)};
    const auto spectrum =
        execute_on_device<Complex<T>>(*device_plan<T>(forward, backend, stream.get()), x, x.size(), stream.get());
    const auto back = execute_on_device<Complex<T>>(*device_plan<T>(inverse, backend, stream.get()), spectrum,
                                                    x.size(), stream.get(), /*in_place=*/true);
    EXPECT_LE(support::relative_l2_error(back, scaled), tolerance<T>()) << "c2c";

    auto r2c = forward, c2r = forward;
    r2c.kind = FftKind::r2c;
    c2r.kind = FftKind::c2r;
    c2r.direction = FftDirection::inverse;
    const auto real = support::random_values<T>(static_cast<std::size_t>(r2c.in_elements()), 12);
    auto real_scaled = real;
    for (auto& v : real_scaled) v *= static_cast<T>(n);
    const auto half = execute_on_device<Complex<T>>(*device_plan<T>(r2c, backend, stream.get()), real,
                                                    static_cast<std::size_t>(r2c.out_elements()), stream.get());
    const auto real_back =
        execute_on_device<T>(*device_plan<T>(c2r, backend, stream.get()), half, real.size(), stream.get());
    EXPECT_LE(support::relative_l2_error(real_back, real_scaled), tolerance<T>()) << "r2c then c2r";
  }
}

}  // namespace

TYPED_TEST(FftGpu, CufftMatchesFftw) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  check_every_supported_layout_against_fftw<TypeParam>(FftBackend::cufft);
}

TYPED_TEST(FftGpu, CufftInverseOfForwardIsNTimesTheInput) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  check_round_trips<TypeParam>(FftBackend::cufft);
}

TYPED_TEST(FftGpu, FlowGraphMatchesFftwWithinTwiceCufftsError) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  check_every_supported_layout_against_fftw<TypeParam>(FftBackend::flow_graph);
}

TYPED_TEST(FftGpu, FlowGraphInverseOfForwardIsNTimesTheInput) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  check_round_trips<TypeParam>(FftBackend::flow_graph);
}

TEST(FftGpuPlan, DevicePlansRefuseANullStreamAndUnknownVariants) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  FftLayout l;
  l.n = 64;
  gridflow::mesh::Stream stream;
  try {
    make_fft_plan<float>(l, MemorySpace::device, nullptr, FftTunables{FftBackend::cufft, ""});
    ADD_FAILURE() << "a null stream was accepted";
  } catch (const gridflow::Error& e) {
    EXPECT_NE(std::string(e.what()).find("needs a stream"), std::string::npos) << e.what();
  }
  try {
    make_fft_plan<float>(l, MemorySpace::device, stream.get(), FftTunables{FftBackend::cufft, "radix4"});
    ADD_FAILURE() << "a cufft variant was accepted";
  } catch (const gridflow::Error& e) {
    EXPECT_NE(std::string(e.what()).find("FFT backend cufft has no variants"), std::string::npos) << e.what();
  }
}

// The tuned choice on the device: cufft against every flow_graph variant, each checked against
// FFTW; the winner passed its check, the variants that did not are listed with their reason.
TEST(FftGpuTuning, ChoosesAmongCufftAndFlowGraphVariantsCheckedAgainstFftw) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("gridflow_fft_gpu_tuning_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  gridflow::autotune::TuningOptions options;
  options.cache = (dir / "tuning.json").string();
  options.repeats = 3;
  FftLayout layout;
  layout.n = 1024;
  layout.batch = 256;
  gridflow::mesh::Stream stream;
  const auto candidates = gridflow::autotune::fft_candidates(layout, MemorySpace::device, false);
  const auto tuning = gridflow::autotune::choose_fft_tunables<float>(layout, MemorySpace::device, stream.get(),
                                                                     options, MPI_COMM_SELF);
  ASSERT_TRUE(tuning.outcome.report.has_value()) << tuning.outcome.note;
  const auto& report = *tuning.outcome.report;
  EXPECT_EQ(report.evaluations, candidates.size());
  EXPECT_EQ(candidates.front().backend, FftBackend::cufft);
  for (const auto& r : report.rejected) EXPECT_NE(r.config, report.chosen) << r.reason;
  std::printf("%s", report.to_text().c_str());
  fs::remove_all(dir);
}
