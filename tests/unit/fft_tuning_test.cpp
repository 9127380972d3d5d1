// The FFT backend choice on the host: fftw against host_flow_graph measured and checked against
// FFTW, the winner stored under the FFT's key and found there on the second call without
// measuring; candidates that cannot plan skipped with their reason; the key's contents.
#include <gtest/gtest.h>
#include <mpi.h>

#include <filesystem>
#include <string>

#include "autotune/fft_evaluator.hpp"
#include "autotune/fft_tuning.hpp"
#include "autotune/tuning_cache.hpp"
#include "tuning_cache_fixture.hpp"
#include "kernels/fft/fft_plan.hpp"

namespace {

using gridflow::autotune::choose_fft_tunables;
using gridflow::autotune::fft_cache_key;
using gridflow::autotune::fft_candidates;
using gridflow::autotune::fft_parameter;
using gridflow::autotune::TuningMode;
using gridflow::kernels::fft::FftBackend;
using gridflow::kernels::fft::FftDirection;
using gridflow::kernels::fft::FftKind;
using gridflow::kernels::fft::FftLayout;
using gridflow::mesh::MemorySpace;
namespace fs = std::filesystem;

class FftTuning : public gridflow::testing::TuningCacheTest {};

FftLayout c2c_layout(std::int64_t n, std::int64_t batch) {
  FftLayout l;
  l.n = n;
  l.batch = batch;
  return l;
}

TEST_F(FftTuning, MeasuresFftwAndHostFlowGraphThenAnswersFromTheCache) {
  const auto layout = c2c_layout(256, 16);
  const auto candidates = fft_candidates(layout, MemorySpace::host, true);
  ASSERT_EQ(candidates.size(), 2u);
  EXPECT_EQ(candidates[0].backend, FftBackend::fftw);
  EXPECT_EQ(candidates[1].backend, FftBackend::host_flow_graph);

  const auto first = choose_fft_tunables<double>(layout, MemorySpace::host, nullptr, options(), MPI_COMM_SELF);
  ASSERT_TRUE(first.outcome.report.has_value()) << first.outcome.note;
  const auto& report = *first.outcome.report;
  EXPECT_FALSE(report.from_cache);
  EXPECT_EQ(report.evaluations, 2u);
  EXPECT_EQ(first.chosen.backend, candidates.at(static_cast<std::size_t>(report.chosen.at(fft_parameter))).backend);
  // A candidate that could not plan or did not match FFTW is listed with the reason, never chosen.
  for (const auto& r : report.rejected) {
    EXPECT_FALSE(r.reason.empty());
    EXPECT_NE(r.config, report.chosen);
  }
  if (report.chosen != report.default_config) {
    ASSERT_TRUE(report.default_median_s.has_value());
    EXPECT_LE(report.chosen_median_s, *report.default_median_s * 1.5);
  }

  const auto cached = gridflow::autotune::TuningCache(m_dir / "tuning.json")
                          .lookup(fft_cache_key(layout, MemorySpace::host, true));
  ASSERT_TRUE(cached.has_value());
  EXPECT_EQ(cached->config, report.chosen);

  const auto second = choose_fft_tunables<double>(layout, MemorySpace::host, nullptr, options(), MPI_COMM_SELF);
  ASSERT_TRUE(second.outcome.report.has_value());
  EXPECT_TRUE(second.outcome.report->from_cache);
  EXPECT_EQ(second.chosen.backend, first.chosen.backend);
  EXPECT_EQ(second.chosen.variant, first.chosen.variant);
}

TEST(FftTuningEvaluator, ACandidateThatCannotPlanFailsItsCheckSayingWhy) {
  const auto layout = c2c_layout(64, 2);
  gridflow::autotune::FftEvaluator<double> evaluator(
      layout, MemorySpace::host, nullptr, {{FftBackend::fftw, ""}, {FftBackend::fftw, "no_such_variant"}},
      fft_parameter, MPI_COMM_SELF);
  EXPECT_TRUE(evaluator.check({{fft_parameter, 0}}).passed);
  const auto verdict = evaluator.check({{fft_parameter, 1}});
  EXPECT_FALSE(verdict.passed);
  EXPECT_NE(verdict.reason.find("FFT backend fftw has no variants, got 'no_such_variant'"), std::string::npos)
      << verdict.reason;
}

TEST_F(FftTuning, OneCandidateOrTuningOffGivesFftwWithoutMeasuring) {
  // 12 is no power of two: host_flow_graph is no candidate, and fftw has nothing to beat.
  const auto only_fftw = choose_fft_tunables<float>(c2c_layout(12, 4), MemorySpace::host, nullptr, options(),
                                                    MPI_COMM_SELF);
  EXPECT_EQ(only_fftw.chosen.backend, FftBackend::fftw);
  EXPECT_FALSE(only_fftw.outcome.report.has_value());
  const auto off = choose_fft_tunables<float>(c2c_layout(64, 4), MemorySpace::host, nullptr,
                                              options(TuningMode::off), MPI_COMM_SELF);
  EXPECT_EQ(off.chosen.backend, FftBackend::fftw);
  EXPECT_FALSE(off.outcome.report.has_value());
  EXPECT_FALSE(fs::exists(m_dir / "tuning.json"));
}

TEST(FftTuningKey, NamesKindDirectionArrangementPrecisionAndExtents) {
  auto l = c2c_layout(1024, 32);
  auto key = fft_cache_key(l, MemorySpace::host, true);
  EXPECT_EQ(key.device, "cpu");
  EXPECT_EQ(key.kernel, "fft::c2c_forward");
  EXPECT_EQ(key.precision, "double");
  EXPECT_EQ(key.extents, "1024x32");
  l.direction = FftDirection::inverse;
  EXPECT_EQ(fft_cache_key(l, MemorySpace::host, false).kernel, "fft::c2c_inverse");
  EXPECT_EQ(fft_cache_key(l, MemorySpace::host, false).precision, "float");
  l.stride = 32;
  l.in_distance = l.out_distance = 1;
  EXPECT_EQ(fft_cache_key(l, MemorySpace::host, false).kernel, "fft::c2c_inverse::strided");
  auto r2c = c2c_layout(100, 3), c2r = r2c;
  r2c.kind = FftKind::r2c;
  c2r.kind = FftKind::c2r;
  c2r.direction = FftDirection::inverse;
  EXPECT_EQ(fft_cache_key(r2c, MemorySpace::host, true).kernel, "fft::r2c");
  EXPECT_EQ(fft_cache_key(c2r, MemorySpace::host, true).kernel, "fft::c2r");
  EXPECT_EQ(fft_cache_key(c2r, MemorySpace::host, true).extents, "100x3");
  EXPECT_NE(fft_cache_key(c2r, MemorySpace::host, true).id(), fft_cache_key(r2c, MemorySpace::host, true).id());
}

}  // namespace
