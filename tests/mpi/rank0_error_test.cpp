// share_rank0_error and share_rank0_input_error (mesh/rank0_error.hpp): rank 0's message reaches
// every rank as the same exception type; an empty one, or a message on another rank alone, throws
// nowhere, so no rank is left waiting in the next collective.
#include <gtest/gtest.h>
#include <mpi.h>

#include <string>

#include "mesh/check.hpp"
#include "mesh/rank0_error.hpp"

namespace gridflow {
namespace {

int rank_of(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return rank;
}

TEST(Rank0Error, RankZerosMessageIsThrownOnEveryRankAsItsKind) {
  const int rank = rank_of(MPI_COMM_WORLD);
  const std::string message = "writing out/heat2d_00000100.h5 failed: No space left on device (errno 28)";
  const std::string mine = rank == 0 ? message : "";
  try {
    share_rank0_error(mine, MPI_COMM_WORLD);
    FAIL() << "share_rank0_error returned on rank " << rank;
  } catch (const InputError&) {
    FAIL() << "share_rank0_error threw an InputError on rank " << rank;
  } catch (const Error& e) {
    EXPECT_EQ(e.what(), message) << "rank " << rank;
  }
  try {
    share_rank0_input_error(mine, MPI_COMM_WORLD);
    FAIL() << "share_rank0_input_error returned on rank " << rank;
  } catch (const InputError& e) {
    EXPECT_EQ(e.what(), message) << "rank " << rank;
  }
}

TEST(Rank0Error, NoMessageOnRankZeroThrowsNowhere) {
  const int rank = rank_of(MPI_COMM_WORLD);
  const std::string others_only = rank == 0 ? "" : "rank " + std::to_string(rank) + "'s own trouble";
  EXPECT_NO_THROW(share_rank0_error(others_only, MPI_COMM_WORLD));
  EXPECT_NO_THROW(share_rank0_input_error(others_only, MPI_COMM_WORLD));
  // Every rank is still in step: a collective after them completes.
  int ranks = 0, sum = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const int one = 1;
  MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(sum, ranks);
}

}  // namespace
}  // namespace gridflow
