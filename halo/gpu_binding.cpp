#include "halo/gpu_binding.hpp"

#include <algorithm>
#include <array>
#include <climits>
#include <cstring>
#include <vector>

#include "gridflow/config.hpp"
#include "mesh/check.hpp"
#include "mesh/decomposition.hpp"
#include "mesh/device.hpp"

#if GRIDFLOW_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace gridflow::halo {

std::string gpu_binding_problem(int local_ranks, int gpus, bool allow_sharing, const std::string& node) {
  if (gpus <= 0)
    return std::to_string(local_ranks) + (local_ranks == 1 ? " rank" : " ranks") + " on node " + node +
           " but no CUDA device is visible there" +
           (GRIDFLOW_HAVE_CUDA ? "" : " (this gridflow was built without CUDA)") + "; run with device = cpu";
  if (local_ranks > gpus && !allow_sharing)
    return std::to_string(local_ranks) + " ranks on node " + node + " but only " + std::to_string(gpus) +
           (gpus == 1 ? " GPU" : " GPUs") + "; set device_sharing = true in the deck to share them";
  return "";
}

namespace {
// What the first node with a problem tells every rank, so all throw the same message.
struct NodeReport {
  int local_ranks = 0;
  int gpus = 0;
  char name[MPI_MAX_PROCESSOR_NAME + 1] = {};
};

// The UUID of the current device, or zeros without one.
std::array<char, 16> current_gpu_uuid() {
  std::array<char, 16> uuid{};
#if GRIDFLOW_HAVE_CUDA
  if (mesh::gpu_available()) {
    int device = 0;
    GRIDFLOW_CUDA_CHECK(cudaGetDevice(&device));
    cudaDeviceProp prop{};
    GRIDFLOW_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    std::memcpy(uuid.data(), &prop.uuid, uuid.size());
  }
#endif
  return uuid;
}

// The sorted current-device UUIDs of every rank of `comm`.
std::vector<std::array<char, 16>> gathered_uuids(MPI_Comm comm) {
  int size = 0;
  GRIDFLOW_MPI_CHECK(MPI_Comm_size(comm, &size));
  const auto uuid = current_gpu_uuid();
  std::vector<std::array<char, 16>> all(static_cast<std::size_t>(size));
  GRIDFLOW_MPI_CHECK(MPI_Allgather(uuid.data(), 16, MPI_BYTE, all.data(), 16, MPI_BYTE, comm));
  std::sort(all.begin(), all.end());
  return all;
}
}  // namespace

int bind_gpu_by_local_rank(MPI_Comm comm, bool allow_sharing) {
  int rank = 0;
  GRIDFLOW_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  MPI_Comm node_comm = MPI_COMM_NULL;
  GRIDFLOW_MPI_CHECK(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node_comm));
  const mesh::SharedComm node = mesh::adopt_comm(node_comm);
  GRIDFLOW_MPI_CHECK(MPI_Comm_set_errhandler(node_comm, MPI_ERRORS_RETURN));

  NodeReport report;
  int local_rank = 0, name_length = 0;
  GRIDFLOW_MPI_CHECK(MPI_Comm_rank(node_comm, &local_rank));
  GRIDFLOW_MPI_CHECK(MPI_Comm_size(node_comm, &report.local_ranks));
  GRIDFLOW_MPI_CHECK(MPI_Get_processor_name(report.name, &name_length));
  const int visible = mesh::gpu_count();
  const int device = visible > 0 ? local_rank % visible : -1;
  if (device >= 0) mesh::select_gpu(device);
  // Count the distinct GPUs the node's ranks ended up on, not the GPUs one rank sees: a site that
  // gives each rank one visible GPU (CUDA_VISIBLE_DEVICES per rank) shares nothing.
  const auto uuids = gathered_uuids(node_comm);
  const std::array<char, 16> none{};
  report.gpus = 0;
  for (std::size_t i = 0; i < uuids.size(); ++i)
    report.gpus += uuids[i] != none && (i == 0 || uuids[i] != uuids[i - 1]);

  // Other nodes may be fine: agree on the first failing rank, and let it tell the others what
  // failed, before anyone throws.
  const bool failing = !gpu_binding_problem(report.local_ranks, report.gpus, allow_sharing, "").empty();
  const int mine = failing ? rank : INT_MAX;
  int first_failing = INT_MAX;
  GRIDFLOW_MPI_CHECK(MPI_Allreduce(&mine, &first_failing, 1, MPI_INT, MPI_MIN, comm));
  if (first_failing != INT_MAX) {
    GRIDFLOW_MPI_CHECK(MPI_Bcast(&report, sizeof report, MPI_BYTE, first_failing, comm));
    report.name[MPI_MAX_PROCESSOR_NAME] = '\0';
    throw InputError(gpu_binding_problem(report.local_ranks, report.gpus, allow_sharing, report.name));
  }
  return device;
}

bool ranks_share_gpu(MPI_Comm comm) {
#if GRIDFLOW_HAVE_CUDA
  // A rank without a usable device contributes zeros and is then "sharing" with any other such
  // rank, which is the safe answer for the NCCL check this serves.
  const auto all = gathered_uuids(comm);
  return std::adjacent_find(all.begin(), all.end()) != all.end();
#else
  (void)comm;
  return false;
#endif
}

}  // namespace gridflow::halo
