#include "mesh/check.hpp"

#include <mpi.h>

#include <sstream>

namespace gridflow::detail {

int world_rank_or_minus_one() {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized) return -1;
  int rank = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

std::string mpi_error_string(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) return "MPI error " + std::to_string(code);
  return std::string(text, static_cast<std::size_t>(length));
}

void throw_call_failure(const char* api, const char* call, const std::string& reason,
                        const char* file, int line) {
  std::ostringstream os;
  os << api << " call failed: " << call << ": " << reason << " (" << file << ':' << line;
  const int rank = world_rank_or_minus_one();
  if (rank >= 0) os << ", rank " << rank;
  os << ')';
  throw Error(os.str());
}

}  // namespace gridflow::detail
