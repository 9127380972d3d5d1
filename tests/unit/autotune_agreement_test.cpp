// Multi-rank agreement: the pure rule, and its MPI form on a one-rank communicator (the unit test
// executable runs under MPI; several ranks are the mpi tests' business).
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <limits>

#include "autotune/agreement.hpp"
#include "mesh/check.hpp"

namespace {

using gridflow::autotune::agree_on_candidate;
using gridflow::autotune::broadcast_candidates;
using gridflow::autotune::Configuration;
using gridflow::autotune::min_max_choice;

constexpr double nan = std::numeric_limits<double>::quiet_NaN();
constexpr double inf = std::numeric_limits<double>::infinity();

TEST(AutotuneAgreement, PicksTheSmallestWorstRankMedian) {
  // Rank 0 likes candidate 0 and rank 1 likes candidate 2, but both run candidate 1 acceptably.
  EXPECT_EQ(min_max_choice({{1.0, 1.3, 2.0}, {2.5, 1.4, 1.1}}), 1u);
  // One rank: its own fastest.
  EXPECT_EQ(min_max_choice({{3.0, 1.0, 2.0}}), 1u);
  // Ties go to the lower index, the same on every rank.
  EXPECT_EQ(min_max_choice({{1.0, 1.0}, {1.0, 1.0}}), 0u);
}

TEST(AutotuneAgreement, ACandidateRejectedOnAnyRankIsRuledOut) {
  EXPECT_EQ(min_max_choice({{1.0, 2.0}, {nan, 2.1}}), 1u);
  EXPECT_EQ(min_max_choice({{inf, 2.0, 3.0}, {1.0, nan, 3.0}}), 2u);
  EXPECT_THROW(min_max_choice({{nan, 1.0}, {1.0, inf}}), gridflow::Error);
  EXPECT_THROW(min_max_choice({}), gridflow::Error);
  EXPECT_THROW(min_max_choice({{1.0, 2.0}, {1.0}}), gridflow::Error);
}

TEST(AutotuneAgreement, MpiFormOnOneRank) {
  const std::vector<Configuration> candidates = {{{"bx", 64}}, {{"bx", 128}}, {{"bx", 256}}};
  EXPECT_EQ(agree_on_candidate(MPI_COMM_SELF, candidates, {1.2, nan, 1.1}), 2u);
  EXPECT_THROW(agree_on_candidate(MPI_COMM_SELF, candidates, {1.0, 2.0}), gridflow::Error);
  EXPECT_THROW(agree_on_candidate(MPI_COMM_SELF, candidates, {nan, nan, inf}), gridflow::Error);
  EXPECT_EQ(broadcast_candidates(MPI_COMM_SELF, 0, candidates), candidates);
  EXPECT_TRUE(broadcast_candidates(MPI_COMM_SELF, 0, {}).empty());
}

}  // namespace
