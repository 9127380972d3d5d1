#pragma once
// One checking macro per foreign API. Each stringifies the call, adds file, line and MPI rank,
// and throws gridflow::Error, so main() can report "[rank r] ..." and abort every rank.
#include <stdexcept>
#include <string>

namespace gridflow {

/// A failure of CUDA, MPI, HDF5 or of an internal invariant; what() names the call and the rank.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A run that failed the same way on every rank (a solution no longer finite, a solve that did not
/// converge): every rank throws it alike, so main() reports it once from rank 0 and exits with
/// status 1 without MPI_Abort.
class RunError : public Error {
 public:
  using Error::Error;
};

/// Bad user input (deck, command line): what() names the key and the reason. Every rank raises
/// the same one, so it is reported once by rank 0 and needs no MPI_Abort.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace detail {
/// This process's rank in MPI_COMM_WORLD, or -1 before MPI_Init / after MPI_Finalize.
int world_rank_or_minus_one();
[[noreturn]] void throw_call_failure(const char* api, const char* call, const std::string& reason,
                                     const char* file, int line);
std::string mpi_error_string(int code);
}  // namespace detail

}  // namespace gridflow

#define GRIDFLOW_MPI_CHECK(call)                                                                 \
  do {                                                                                          \
    const int gridflow_mpi_rc_ = (call);                                                        \
    if (gridflow_mpi_rc_ != 0 /* MPI_SUCCESS */)                                                \
      ::gridflow::detail::throw_call_failure("MPI", #call,                                      \
                                             ::gridflow::detail::mpi_error_string(gridflow_mpi_rc_), \
                                             __FILE__, __LINE__);                               \
  } while (0)

// Needs <cuda_runtime_api.h> at the point of use.
#define GRIDFLOW_CUDA_CHECK(call)                                                               \
  do {                                                                                          \
    const cudaError_t gridflow_cuda_rc_ = (call);                                               \
    if (gridflow_cuda_rc_ != cudaSuccess)                                                       \
      ::gridflow::detail::throw_call_failure("CUDA", #call,                                     \
                                             cudaGetErrorString(gridflow_cuda_rc_), __FILE__,   \
                                             __LINE__);                                         \
  } while (0)

// NCCL calls return ncclResult_t; ncclGetLastError adds NCCL's own account of the failure.
// Needs <nccl.h> at the point of use, like the CUDA check: the definition itself references
// nothing, and an `#ifdef NCCL_H_` guard would depend on include order under #pragma once.
#define GRIDFLOW_NCCL_CHECK(call)                                                               \
  do {                                                                                          \
    const ncclResult_t gridflow_nccl_rc_ = (call);                                              \
    if (gridflow_nccl_rc_ != ncclSuccess)                                                       \
      ::gridflow::detail::throw_call_failure(                                                   \
          "NCCL", #call,                                                                        \
          std::string(ncclGetErrorString(gridflow_nccl_rc_)) + ": " + ncclGetLastError(nullptr), \
          __FILE__, __LINE__);                                                                  \
  } while (0)

// HDF5 calls return a negative herr_t / hid_t on failure; the HDF5 error stack is printed by
// the library itself when its automatic error printing is on.
#define GRIDFLOW_H5_CHECK(call)                                                                 \
  ([&]() {                                                                                      \
    auto gridflow_h5_rc_ = (call);                                                              \
    if (gridflow_h5_rc_ < 0)                                                                    \
      ::gridflow::detail::throw_call_failure("HDF5", #call, "returned a negative status",       \
                                             __FILE__, __LINE__);                               \
    return gridflow_h5_rc_;                                                                     \
  }())

#define GRIDFLOW_REQUIRE(condition, message)                                                    \
  do {                                                                                          \
    if (!(condition))                                                                           \
      ::gridflow::detail::throw_call_failure("gridflow", #condition, (message), __FILE__,       \
                                             __LINE__);                                         \
  } while (0)
