// The fftw backend of FftPlan against the direct DFT in long double: every kind and direction,
// lengths with and without small factors, lines contiguous, padded and interleaved; the round
// trip inverse(forward(x)) = n x; one plan on buffers at any address; and every bad layout or
// misuse refused with a message naming it.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "fft_test_support.hpp"
#include "kernels/fft/fft_plan.hpp"
#include "mesh/check.hpp"

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
class FftwPlan : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(FftwPlan, Precisions);

template <class T>
double tolerance() {
  return sizeof(T) == 4 ? 2e-6 : 4e-15;  // ~7x the largest error FFTW shows here
}

const std::vector<std::int64_t> lengths{1, 2, 3, 5, 12, 64, 257};

template <class T>
std::unique_ptr<FftPlan<T>> fftw_plan(const FftLayout& layout) {
  return make_fft_plan<T>(layout, MemorySpace::host, nullptr, FftTunables{FftBackend::fftw, ""});
}

FftLayout layout_of(std::int64_t n, FftKind kind, FftDirection direction) {
  FftLayout l;
  l.n = n;
  l.kind = kind;
  l.direction = kind == FftKind::c2c ? direction : kind == FftKind::r2c ? FftDirection::forward : FftDirection::inverse;
  return l;
}

// The three arrangements of a batch the plan must honour.
std::vector<FftLayout> arrangements(const FftLayout& base) {
  FftLayout contiguous = base, interleaved = base, padded = base;
  contiguous.batch = 3;
  interleaved.batch = 3;
  interleaved.stride = 3;
  interleaved.in_distance = interleaved.out_distance = 1;
  padded.batch = 2;
  padded.stride = 2;
  padded.in_distance = 2 * base.in_line_elements() + 3;
  padded.out_distance = 2 * base.out_line_elements() + 5;
  return {contiguous, interleaved, padded};
}

std::string describe(const FftLayout& l) {
  const char* kind = l.kind == FftKind::c2c ? "c2c" : l.kind == FftKind::r2c ? "r2c" : "c2r";
  return std::string(kind) + (l.direction == FftDirection::forward ? " forward" : " inverse") + " n=" +
         std::to_string(l.n) + " batch=" + std::to_string(l.batch) + " stride=" + std::to_string(l.stride) +
         " distances=" + std::to_string(l.in_distance) + "," + std::to_string(l.out_distance);
}

// Transforms random input laid out as `l` and compares every line with the direct transform;
// output elements outside every line must keep their sentinel.
template <class T, class In, class Out>
void check_against_direct_dft(const FftLayout& l) {
  SCOPED_TRACE(describe(l));
  auto in = support::random_values<In>(static_cast<std::size_t>(l.in_elements()), 17u + static_cast<unsigned>(l.n));
  const auto original = in;
  Out sentinel{};
  std::memset(static_cast<void*>(&sentinel), 0x7f, sizeof(Out));
  std::vector<Out> out(static_cast<std::size_t>(l.out_elements()), sentinel);
  fftw_plan<T>(l)->execute(in.data(), out.data());

  std::vector<support::LongComplex> got, want;
  std::vector<bool> in_a_line(out.size(), false);
  for (std::int64_t b = 0; b < l.batch; ++b) {
    const auto line = support::gather_line(l, out, b, false);
    got.insert(got.end(), line.begin(), line.end());
    const auto reference = support::direct_transform(l, support::gather_line(l, original, b, true));
    want.insert(want.end(), reference.begin(), reference.end());
    for (std::int64_t j = 0; j < l.out_line_elements(); ++j) in_a_line[b * l.resolved_out_distance() + j * l.stride] = true;
  }
  EXPECT_LE(support::relative_l2_error(got, want), tolerance<T>());
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (!in_a_line[i]) {
      EXPECT_EQ(std::memcmp(&out[i], &sentinel, sizeof(Out)), 0) << "element " << i << " written";
    }
  }
}

template <class T>
void check_against_direct_dft(const FftLayout& l) {
  if (l.kind == FftKind::c2c) check_against_direct_dft<T, Complex<T>, Complex<T>>(l);
  if (l.kind == FftKind::r2c) check_against_direct_dft<T, T, Complex<T>>(l);
  if (l.kind == FftKind::c2r) check_against_direct_dft<T, Complex<T>, T>(l);
}

TYPED_TEST(FftwPlan, MatchesDirectDftForEveryKindLengthAndArrangement) {
  for (auto n : lengths)
    for (auto [kind, direction] : {std::pair{FftKind::c2c, FftDirection::forward},
                                   std::pair{FftKind::c2c, FftDirection::inverse},
                                   std::pair{FftKind::r2c, FftDirection::forward},
                                   std::pair{FftKind::c2r, FftDirection::inverse}})
      for (const auto& l : arrangements(layout_of(n, kind, direction))) check_against_direct_dft<TypeParam>(l);
}

TYPED_TEST(FftwPlan, InverseOfForwardIsNTimesTheInput) {
  using T = TypeParam;
  for (auto n : lengths) {
    SCOPED_TRACE("n=" + std::to_string(n));
    auto forward = layout_of(n, FftKind::c2c, FftDirection::forward), inverse = forward;
    forward.batch = inverse.batch = 2;
    inverse.direction = FftDirection::inverse;
    const auto x = support::random_values<Complex<T>>(static_cast<std::size_t>(forward.in_elements()), 5);
    std::vector<Complex<T>> spectrum(x.size()), back(x.size()), scaled(x);
    for (auto& v : scaled) v = {v.re * n, v.im * n};
    fftw_plan<T>(forward)->execute(x.data(), spectrum.data());
    fftw_plan<T>(inverse)->execute(spectrum.data(), back.data());
    EXPECT_LE(support::relative_l2_error(back, scaled), tolerance<T>());

    auto r2c = layout_of(n, FftKind::r2c, FftDirection::forward), c2r = layout_of(n, FftKind::c2r, FftDirection::inverse);
    r2c.batch = c2r.batch = 2;
    const auto real = support::random_values<T>(static_cast<std::size_t>(r2c.in_elements()), 6);
    std::vector<Complex<T>> half(static_cast<std::size_t>(r2c.out_elements()));
    std::vector<T> real_back(real.size()), real_scaled(real);
    for (auto& v : real_scaled) v *= n;
    fftw_plan<T>(r2c)->execute(real.data(), half.data());
    fftw_plan<T>(c2r)->execute(half.data(), real_back.data());
    EXPECT_LE(support::relative_l2_error(real_back, real_scaled), tolerance<T>());
  }
}

TYPED_TEST(FftwPlan, InPlaceC2cMatchesOutOfPlace) {
  using T = TypeParam;
  for (auto n : lengths) {
    auto l = layout_of(n, FftKind::c2c, FftDirection::forward);
    l.batch = 3;
    const auto x = support::random_values<Complex<T>>(static_cast<std::size_t>(l.in_elements()), 9);
    std::vector<Complex<T>> out(x.size()), in_place(x);
    auto plan = fftw_plan<T>(l);
    plan->execute(x.data(), out.data());
    plan->execute(in_place.data(), in_place.data());
    EXPECT_LE(support::relative_l2_error(in_place, out), tolerance<T>()) << "n=" << n;
  }
}

// FFTW's plans may assume the SIMD alignment of the arrays they were made on; this backend's
// must not, so buffers one element off give the very same bits.
TYPED_TEST(FftwPlan, OnePlanServesBuffersAtAnyAddress) {
  using T = TypeParam;
  auto l = layout_of(64, FftKind::r2c, FftDirection::forward);
  l.batch = 4;
  const auto in = support::random_values<T>(static_cast<std::size_t>(l.in_elements()) + 1, 3);
  std::vector<Complex<T>> aligned(static_cast<std::size_t>(l.out_elements()) + 1), shifted(aligned.size());
  std::vector<T> in_aligned(in.begin(), in.end() - 1), in_shifted(in.size());
  std::copy(in_aligned.begin(), in_aligned.end(), in_shifted.begin() + 1);
  auto plan = fftw_plan<T>(l);
  plan->execute(in_aligned.data(), aligned.data());
  plan->execute(in_shifted.data() + 1, shifted.data() + 1);
  for (std::int64_t i = 0; i < l.out_elements(); ++i) {
    EXPECT_EQ(std::memcmp(&aligned[i], &shifted[i + 1], sizeof(Complex<T>)), 0) << "element " << i;
  }
}

void expect_error_naming(const std::function<void()>& f, const std::string& reason) {
  try {
    f();
    ADD_FAILURE() << "no error; expected one naming '" << reason << "'";
  } catch (const gridflow::Error& e) {
    EXPECT_NE(std::string(e.what()).find(reason), std::string::npos) << e.what();
  }
}

TEST(FftPlanLayout, BadLayoutsAreRefusedNamingTheReason) {
  const auto plan_with = [](FftLayout l, FftBackend backend = FftBackend::fftw,
                            MemorySpace space = MemorySpace::host) {
    return [=] { make_fft_plan<double>(l, space, nullptr, FftTunables{backend, ""}); };
  };
  const auto c2c = layout_of(8, FftKind::c2c, FftDirection::forward);
  auto l = c2c;
  l.n = 0;
  expect_error_naming(plan_with(l), "FFT length 0 is not positive");
  l = c2c;
  l.batch = 0;
  expect_error_naming(plan_with(l), "FFT batch 0 is not positive");
  l = c2c;
  l.stride = 0;
  expect_error_naming(plan_with(l), "FFT stride 0 is not positive");
  l = c2c;
  l.in_distance = -1;
  expect_error_naming(plan_with(l), "distances must not be negative");
  l = layout_of(8, FftKind::r2c, FftDirection::forward);
  l.direction = FftDirection::inverse;
  expect_error_naming(plan_with(l), "an r2c FFT is forward and a c2r FFT inverse");
  l = layout_of(8, FftKind::c2r, FftDirection::inverse);
  l.direction = FftDirection::forward;
  expect_error_naming(plan_with(l), "an r2c FFT is forward and a c2r FFT inverse");
  l = c2c;
  l.batch = 2;
  l.out_distance = 4;
  expect_error_naming(plan_with(l), "FFT output lines overlap");
  l = c2c;
  l.batch = 3;
  l.stride = 2;
  l.in_distance = l.out_distance = 1;
  expect_error_naming(plan_with(l), "FFT output lines overlap");
  expect_error_naming(plan_with(c2c, FftBackend::cufft), "FFT backend cufft does not run on host memory");
  expect_error_naming(plan_with(c2c, FftBackend::fftw, MemorySpace::device),
                      "FFT backend fftw does not run on device memory");
  l = c2c;
  l.n = 12;
  expect_error_naming(plan_with(l, FftBackend::host_flow_graph), "FFT backend host_flow_graph cannot plan length 12");
  l = c2c;
  l.n = std::int64_t(1) << 31;
  expect_error_naming(plan_with(l), "FFT backend fftw cannot plan length 2147483648");
  expect_error_naming([&] { make_fft_plan<float>(c2c, MemorySpace::host, nullptr, {FftBackend::fftw, "radix4"}); },
                      "FFT backend fftw has no variants, got 'radix4'");
  expect_error_naming([] { gridflow::kernels::fft::parse_fft_backend("fftx"); }, "unknown FFT backend 'fftx'");
}

TEST(FftPlanLayout, ExecutionOfTheWrongKindOrInPlaceIsRefused) {
  std::vector<Complex<double>> a(8), b(8);
  std::vector<double> r(8);
  const auto host = MemorySpace::host;
  const FftTunables fftw{FftBackend::fftw, ""};
  auto c2c = make_fft_plan<double>(layout_of(8, FftKind::c2c, FftDirection::forward), host, nullptr, fftw);
  auto r2c = make_fft_plan<double>(layout_of(8, FftKind::r2c, FftDirection::forward), host, nullptr, fftw);
  auto c2r = make_fft_plan<double>(layout_of(8, FftKind::c2r, FftDirection::inverse), host, nullptr, fftw);
  expect_error_naming([&] { c2c->execute(r.data(), a.data()); }, "real-to-complex execution of a c2c plan");
  expect_error_naming([&] { c2c->execute(a.data(), r.data()); }, "complex-to-real execution of a c2c plan");
  expect_error_naming([&] { r2c->execute(a.data(), b.data()); }, "complex-to-complex execution of a r2c plan");
  expect_error_naming([&] { c2r->execute(r.data(), a.data()); }, "real-to-complex execution of a c2r plan");
  expect_error_naming([&] { r2c->execute(static_cast<const void*>(r.data()), static_cast<void*>(r.data())); },
                      "in-place FFT execution needs a c2c plan");
  auto padded = layout_of(8, FftKind::c2c, FftDirection::forward);
  padded.out_distance = 9;
  expect_error_naming(
      [&] { make_fft_plan<double>(padded, host, nullptr, fftw)->execute(a.data(), a.data()); },
      "in-place FFT execution needs a c2c plan with equal input and output line distances");
  expect_error_naming([&] { c2c->execute(a.data(), static_cast<Complex<double>*>(nullptr)); },
                      "FFTW execution on a null buffer");
}

}  // namespace
