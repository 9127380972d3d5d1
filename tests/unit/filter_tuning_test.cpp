// The filter variant choice: which candidates each method offers in each memory space, the cache
// key, the evaluator's checks (the FFT variant within its rounding bound of the host reference,
// a candidate that cannot run rejected with the reason), and on the host the reference against
// the FFT variant measured, stored, and found in the cache on the second call.
#include <gtest/gtest.h>
#include <mpi.h>

#include <filesystem>
#include <set>
#include <string>

#include "autotune/filter_evaluator.hpp"
#include "autotune/filter_tuning.hpp"
#include "autotune/tuning_cache.hpp"
#include "tuning_cache_fixture.hpp"
#include "kernels/filter/filter_search_space.hpp"

namespace {

namespace kf = gridflow::kernels::filter;
using gridflow::autotune::choose_filter_tunables;
using gridflow::autotune::filter_cache_key;
using gridflow::autotune::filter_candidate_label;
using gridflow::autotune::filter_parameter;
using gridflow::autotune::filter_tuning_candidates;
using gridflow::autotune::FilterMethod;
using gridflow::autotune::TuningMode;
using gridflow::mesh::Box;
using gridflow::mesh::MemorySpace;
using kf::FilterTunables;
using kf::FilterVariant;
namespace fs = std::filesystem;

std::set<std::string> labels_of(const std::vector<FilterTunables>& c, MemorySpace space) {
  std::set<std::string> labels;
  for (const auto& t : c) labels.insert(filter_candidate_label(t, space));
  return labels;
}

bool has_variant(const std::vector<FilterTunables>& c, FilterVariant v) {
  for (const auto& t : c)
    if (t.variant == v) return true;
  return false;
}

TEST(FilterTuningCandidates, DirectOnTheHostIsTheReferenceAlone) {
  const auto c = filter_tuning_candidates<2>(kf::gaussian_filter<2>({2.0, 2.0}), 2, MemorySpace::host, FilterMethod::direct);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(filter_candidate_label(c[0], MemorySpace::host), "host reference");
}

TEST(FilterTuningCandidates, DeviceDirectOffersTheRingShapesWhereARingKernelIsCompiled) {
  // Gaussian sigma 1: 9 weights per axis, a ring length.
  const auto ring = filter_tuning_candidates<2>(kf::gaussian_filter<2>({1.0, 1.0}), 2, MemorySpace::device, FilterMethod::direct);
  EXPECT_EQ(ring.front().variant, FilterTunables::defaults_for(2).variant);
  EXPECT_TRUE(has_variant(ring, FilterVariant::ring));
  EXPECT_TRUE(has_variant(ring, FilterVariant::panel));  // the same length on both axes of a 2D field
  EXPECT_FALSE(has_variant(ring, FilterVariant::warp));  // the last axis filtered too
  EXPECT_TRUE(has_variant(ring, FilterVariant::streaming));
  EXPECT_TRUE(has_variant(ring, FilterVariant::direct));
  EXPECT_FALSE(has_variant(ring, FilterVariant::fft));
  EXPECT_EQ(labels_of(ring, MemorySpace::device).size(), ring.size()) << "each candidate once";
  // A mean of 7: no ring kernel for that length, so the streaming and tiled shapes instead.
  const auto other = filter_tuning_candidates<2>(kf::mean_filter<2>({7, 7}), 2, MemorySpace::device, FilterMethod::direct);
  EXPECT_FALSE(has_variant(std::vector<FilterTunables>(other.begin() + 1, other.end()), FilterVariant::ring));
  EXPECT_FALSE(has_variant(std::vector<FilterTunables>(other.begin() + 1, other.end()), FilterVariant::warp));
  // A 1D signal: the ring kernel's chunks and the warp kernel.
  const auto line = filter_tuning_candidates<2>(kf::separable_weights<2>({kf::mean_weights(5), kf::identity_weights()}), 1,
                                                MemorySpace::device, FilterMethod::direct);
  EXPECT_TRUE(has_variant(line, FilterVariant::ring));
  EXPECT_TRUE(has_variant(line, FilterVariant::warp));
  EXPECT_FALSE(has_variant(line, FilterVariant::panel));
  EXPECT_TRUE(has_variant(other, FilterVariant::tiled));
  EXPECT_TRUE(has_variant(other, FilterVariant::streaming));
  // Full weights run the one direct kernel, whatever the tunables.
  const auto full = filter_tuning_candidates<2>(kf::full_weights<2>({3, 3}, std::vector<double>(9, 1.0 / 9)), 2, MemorySpace::device,
                                                FilterMethod::direct);
  EXPECT_EQ(full.size(), 1u);
}

TEST(FilterTuningCandidates, FftIsTheFftDefaultsAndAutoAddsEveryFftCandidate) {
  const auto w = kf::gaussian_filter<3>({4.0, 4.0, 4.0});
  for (MemorySpace space : {MemorySpace::host, MemorySpace::device}) {
    const auto all_fft = kf::filter_fft_candidates(3, space);
    ASSERT_FALSE(all_fft.empty());
    for (const auto& t : all_fft) EXPECT_EQ(t.variant, FilterVariant::fft);
    const auto fft = filter_tuning_candidates<3>(w, 3, space, FilterMethod::fft);
    ASSERT_EQ(fft.size(), 1u) << "nothing measured: the same bits on every rank count";
    EXPECT_EQ(filter_candidate_label(fft[0], space), filter_candidate_label(all_fft[0], space));
    const auto direct = filter_tuning_candidates<3>(w, 3, space, FilterMethod::direct);
    const auto both = filter_tuning_candidates<3>(w, 3, space, FilterMethod::automatic);
    EXPECT_EQ(both.size(), direct.size() + all_fft.size());
    EXPECT_EQ(filter_candidate_label(both.front(), space), filter_candidate_label(direct.front(), space));
  }
}

TEST(FilterTuningKey, NamesMethodModeWeightsPrecisionAndExtents) {
  const Box<2> update{{0, 0}, {511, 255}};
  const auto key = filter_cache_key<2>(kf::mean_filter<2>({5, 3}), kf::BoundaryMode::reflect, FilterMethod::automatic, update,
                                       MemorySpace::host, true);
  EXPECT_EQ(key.device, "cpu");
  EXPECT_EQ(key.kernel, "filter::auto::reflect::separable::5x3");
  EXPECT_EQ(key.precision, "double");
  EXPECT_EQ(key.extents, "512x256");
  const auto full = filter_cache_key<2>(kf::full_weights<2>({4, 2}, std::vector<double>(8, 0.125)), kf::BoundaryMode::wrap,
                                        FilterMethod::fft, update, MemorySpace::host, false);
  EXPECT_EQ(full.kernel, "filter::fft::wrap::full::4x2");
  EXPECT_EQ(full.precision, "float");
}

TEST(FilterTuningMethod, ParsesItsThreeNamesAndRefusesOthers) {
  EXPECT_EQ(gridflow::autotune::parse_filter_method("direct"), FilterMethod::direct);
  EXPECT_EQ(gridflow::autotune::parse_filter_method("fft"), FilterMethod::fft);
  EXPECT_EQ(gridflow::autotune::parse_filter_method("auto"), FilterMethod::automatic);
  for (FilterMethod m : {FilterMethod::direct, FilterMethod::fft, FilterMethod::automatic})
    EXPECT_EQ(gridflow::autotune::parse_filter_method(gridflow::autotune::to_string(m)), m);
  try {
    gridflow::autotune::parse_filter_method("fast");
    FAIL() << "no error";
  } catch (const gridflow::Error& e) {
    EXPECT_NE(std::string(e.what()).find("direct, fft or auto"), std::string::npos) << e.what();
  }
}

// A 17 x 17 correlation over 200 x 150 points: the FFT candidates pass within their bound, a
// candidate that cannot run fails with the reason, and one that gives other values fails.
TEST(FilterTuningEvaluator, ChecksTheFftVariantWithinItsBoundAndRejectsWhatCannotRun) {
  std::vector<double> values(17 * 17);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = 1.0 / (1.0 + static_cast<double>(i % 23));
  const kf::FilterPlan<double, 2> plan(kf::full_weights<2>({17, 17}, values), kf::Boundary{kf::BoundaryMode::mirror, 0.0},
                                       Box<2>{{0, 0}, {199, 149}});
  auto candidates = kf::filter_fft_candidates(2, MemorySpace::host);
  ASSERT_FALSE(candidates.empty());
  FilterTunables broken = FilterTunables::defaults_for(2);
  broken.threads = 0;  // FilterPlan refuses it
  candidates.push_back(broken);
  gridflow::autotune::FilterEvaluator<double, 2> evaluator(plan, plan.global(), MemorySpace::host, nullptr, candidates, filter_parameter,
                                                           MPI_COMM_SELF);
  for (std::size_t i = 0; i + 1 < candidates.size(); ++i) {
    const auto verdict = evaluator.check({{filter_parameter, static_cast<std::int64_t>(i)}});
    EXPECT_TRUE(verdict.passed) << verdict.reason;
  }
  const auto bad = evaluator.check({{filter_parameter, static_cast<std::int64_t>(candidates.size() - 1)}});
  EXPECT_FALSE(bad.passed);
  EXPECT_NE(bad.reason.find("cannot run"), std::string::npos) << bad.reason;
}

class FilterTuning : public gridflow::testing::TuningCacheTest {};

TEST_F(FilterTuning, AutoOnTheHostMeasuresTheReferenceAndTheFftVariantThenAnswersFromTheCache) {
  const kf::FilterPlan<double, 2> plan(kf::gaussian_filter<2>({8.0, 8.0}), kf::Boundary{}, Box<2>{{0, 0}, {383, 255}});
  const auto candidates = filter_tuning_candidates<2>(plan.weights(), 2, MemorySpace::host, FilterMethod::automatic);
  ASSERT_GE(candidates.size(), 2u);
  const auto first = choose_filter_tunables(plan, plan.global(), MemorySpace::host, nullptr, FilterMethod::automatic, options(), MPI_COMM_SELF);
  ASSERT_TRUE(first.outcome.report.has_value()) << first.outcome.note;
  const auto& report = *first.outcome.report;
  EXPECT_FALSE(report.from_cache);
  EXPECT_EQ(report.evaluations, candidates.size());
  EXPECT_TRUE(report.rejected.empty()) << report.to_text();
  EXPECT_EQ(filter_candidate_label(first.chosen, MemorySpace::host),
            filter_candidate_label(candidates.at(static_cast<std::size_t>(report.chosen.at(filter_parameter))), MemorySpace::host));

  const auto second = choose_filter_tunables(plan, plan.global(), MemorySpace::host, nullptr, FilterMethod::automatic, options(), MPI_COMM_SELF);
  ASSERT_TRUE(second.outcome.report.has_value());
  EXPECT_TRUE(second.outcome.report->from_cache);
  EXPECT_EQ(filter_candidate_label(second.chosen, MemorySpace::host), filter_candidate_label(first.chosen, MemorySpace::host));
}

TEST_F(FilterTuning, OneCandidateOrTuningOffTakesTheFirstWithoutMeasuring) {
  const kf::FilterPlan<float, 3> plan(kf::mean_filter<3>({3, 3, 3}), kf::Boundary{}, Box<3>{{0, 0, 0}, {15, 15, 15}});
  const auto direct = choose_filter_tunables(plan, plan.global(), MemorySpace::host, nullptr, FilterMethod::direct, options(), MPI_COMM_SELF);
  EXPECT_EQ(direct.candidates, 1u);
  EXPECT_FALSE(direct.outcome.report.has_value());
  EXPECT_NE(direct.chosen.variant, FilterVariant::fft);
  const auto off = choose_filter_tunables(plan, plan.global(), MemorySpace::host, nullptr, FilterMethod::fft, options(TuningMode::off),
                                          MPI_COMM_SELF);
  EXPECT_EQ(off.chosen.variant, FilterVariant::fft);
  EXPECT_FALSE(off.outcome.report.has_value());
  EXPECT_FALSE(fs::exists(m_dir / "tuning.json"));
}

}  // namespace
