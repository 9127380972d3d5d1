#include "app/run/memory_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <sys/resource.h>

#include "mesh/check.hpp"
#include "mesh/device.hpp"

namespace gridflow::app {

namespace {

/// A communicator freed when it goes out of scope.
class OwnedComm {
 public:
  explicit OwnedComm(MPI_Comm comm) : m_comm(comm) {}
  ~OwnedComm() {
    if (m_comm != MPI_COMM_NULL) MPI_Comm_free(&m_comm);
  }
  OwnedComm(const OwnedComm&) = delete;
  OwnedComm& operator=(const OwnedComm&) = delete;
  MPI_Comm get() const { return m_comm; }

 private:
  MPI_Comm m_comm;
};

/// A number of bytes in a control file ("max" and unreadable files give nullopt).
std::optional<double> bytes_in(const std::string& path) {
  std::ifstream in(path);
  std::string word;
  if (!(in >> word) || word.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  return std::stod(word);
}

std::string gib(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GiB", bytes / (1024.0 * 1024.0 * 1024.0));
  return text;
}

double reduce(double value, MPI_Op op, MPI_Comm comm) {
  double out = 0;
  GRIDFLOW_MPI_CHECK(MPI_Allreduce(&value, &out, 1, MPI_DOUBLE, op, comm));
  return out;
}

/// A "Vm...:" line of /proc/self/status in bytes (nullopt where the file or line is missing).
std::optional<double> process_status_bytes(const std::string& key) {
  std::ifstream status("/proc/self/status");
  std::string word;
  while (status >> word) {
    double kib = 0;
    if (word == key && status >> kib) return kib * 1024;
  }
  return std::nullopt;
}

/// The room a per-process limit (ulimit -v, ulimit -d) leaves this rank: what it allows less what
/// the process maps already. nullopt where no limit is set. A cluster's job limits often take this
/// form, and an allocation past it fails however much memory the node has free.
std::optional<double> process_limit_room() {
  std::optional<double> room;
  const std::pair<int, const char*> limits[] = {{RLIMIT_AS, "VmSize:"}, {RLIMIT_DATA, "VmData:"}};
  for (const auto& [resource, key] : limits) {
    rlimit limit{};
    if (getrlimit(resource, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) continue;
    const double left = std::max(0.0, static_cast<double>(limit.rlim_cur) - process_status_bytes(key).value_or(0.0));
    room = room ? std::min(*room, left) : left;
  }
  return room;
}

/// InputError text when a rank's host need exceeds the room its process limit leaves.
std::string process_limit_refusal(double need, MPI_Comm comm) {
  const auto room = process_limit_room();
  const double least_room = reduce(room ? *room : HUGE_VAL, MPI_MIN, comm);
  const double most = reduce(need, MPI_MAX, comm);
  if (most <= least_room) return "";
  int size = 1;
  GRIDFLOW_MPI_CHECK(MPI_Comm_size(comm, &size));
  const double at_least = std::ceil(most * size / std::max(least_room, 1.0));
  std::ostringstream text;
  text << "the grid and solver need about " << gib(most) << " per rank (host), but a process limit (ulimit -v or -d) "
       << "leaves a rank only " << gib(least_room) << ": raise the limit, or use at least " << at_least << " ranks";
  return text.str();
}

/// One resource shared by the ranks of `group` (a node's memory, a GPU's): InputError text when
/// their needs together exceed `available` (as the group's first rank sees it) on any group of
/// `comm`; empty otherwise. The same text on every rank of `comm`.
std::string refusal(double need, double available, MPI_Comm group, MPI_Comm comm, const std::string& where,
                    const std::string& units) {
  int group_size = 1;
  GRIDFLOW_MPI_CHECK(MPI_Comm_size(group, &group_size));
  GRIDFLOW_MPI_CHECK(MPI_Bcast(&available, 1, MPI_DOUBLE, 0, group));
  const double group_need = reduce(need, MPI_SUM, group);
  const int fits = group_need <= available ? 1 : 0;
  int all_fit = 0;
  GRIDFLOW_MPI_CHECK(MPI_Allreduce(&fits, &all_fit, 1, MPI_INT, MPI_MIN, comm));
  if (all_fit) return "";
  // Figures of the tightest place, so every rank words the same message.
  const double per_rank_available = reduce(available / group_size, MPI_MIN, comm);
  const double most = reduce(need, MPI_MAX, comm);
  const double total = reduce(need, MPI_SUM, comm);
  const double at_least = std::ceil(total / std::max(per_rank_available, 1.0));
  std::ostringstream text;
  text << "the grid and solver need about " << gib(most) << " per rank (" << where << "), " << gib(per_rank_available)
       << " available" << (group_size > 1 ? " to each of the " + std::to_string(group_size) + " ranks sharing it" : "")
       << ": use at least " << static_cast<long long>(at_least) << " " << units
       << " with that much memory each, or a smaller grid (key 'grid.n') or precision = \"float\"";
  return text.str();
}

}  // namespace

std::optional<double> host_memory_available() {
  std::optional<double> available;
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  double kib = 0;
  std::string unit;
  while (meminfo >> key >> kib) {
    std::getline(meminfo, unit);
    if (key == "MemAvailable:") {
      available = kib * 1024;
      break;
    }
  }
  // A container's limit (cgroup v2) is what the kernel enforces, whatever the node has.
  const auto limit = bytes_in("/sys/fs/cgroup/memory.max");
  const auto used = bytes_in("/sys/fs/cgroup/memory.current");
  if (limit && used) {
    const double left = std::max(0.0, *limit - *used);
    available = available ? std::min(*available, left) : left;
  }
  return available;
}

void require_memory(const solver::MemoryNeed& need, mesh::MemorySpace space, MPI_Comm comm) {
  int rank = 0;
  GRIDFLOW_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  MPI_Comm node_comm = MPI_COMM_NULL;
  GRIDFLOW_MPI_CHECK(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node_comm));
  const OwnedComm node(node_comm);
  int node_rank = 0;
  GRIDFLOW_MPI_CHECK(MPI_Comm_rank(node.get(), &node_rank));

  // A node that cannot say what it has available is not refused.
  const auto host = node_rank == 0 ? host_memory_available() : std::nullopt;
  const double host_available = host ? *host : HUGE_VAL;
  std::string error = refusal(need.host_bytes, host_available, node.get(), comm, "host", "ranks");
  if (error.empty()) error = process_limit_refusal(need.host_bytes, comm);
  if (error.empty() && space == mesh::MemorySpace::device) {
    const mesh::GpuMemory gpu = mesh::current_gpu_memory();
    MPI_Comm gpu_comm = MPI_COMM_NULL;
    GRIDFLOW_MPI_CHECK(MPI_Comm_split(node.get(), gpu.device, rank, &gpu_comm));
    const OwnedComm sharing(gpu_comm);
    error = refusal(need.device_bytes, static_cast<double>(gpu.free_bytes), sharing.get(), comm, "GPU", "GPUs");
  }
  if (!error.empty()) throw InputError(error);
}

}  // namespace gridflow::app
