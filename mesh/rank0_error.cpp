#include "mesh/rank0_error.hpp"

#include "mesh/check.hpp"

namespace gridflow {

namespace {

/// Rank 0's message on every rank (empty on every rank when rank 0's is).
std::string rank0_message_everywhere(const std::string& rank0_message, MPI_Comm comm) {
  int rank = 0;
  GRIDFLOW_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  int length = rank == 0 ? static_cast<int>(rank0_message.size()) : 0;
  GRIDFLOW_MPI_CHECK(MPI_Bcast(&length, 1, MPI_INT, 0, comm));
  if (length == 0) return {};
  std::string message = rank == 0 ? rank0_message : std::string(static_cast<std::size_t>(length), ' ');
  GRIDFLOW_MPI_CHECK(MPI_Bcast(message.data(), length, MPI_CHAR, 0, comm));
  return message;
}

}  // namespace

void share_rank0_input_error(const std::string& rank0_message, MPI_Comm comm) {
  const std::string message = rank0_message_everywhere(rank0_message, comm);
  if (!message.empty()) throw InputError(message);
}

void share_rank0_error(const std::string& rank0_message, MPI_Comm comm) {
  const std::string message = rank0_message_everywhere(rank0_message, comm);
  if (!message.empty()) throw Error(message);
}

}  // namespace gridflow
