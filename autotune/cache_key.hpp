#pragma once
// CacheKey: what a tuned configuration is valid for. The best configuration depends on the GPU
// generation, the kernel, the precision and the grid (the seed paper's finding), and on the code:
// a new kernel version invalidates what was measured for the old one.
#include <cstdint>
#include <string>
#include <vector>

#include "mesh/memory_space.hpp"

namespace gridflow::autotune {

struct CacheKey {
  std::string device;     ///< device_key(): "NVIDIA H200 (sm_90)", or "cpu"
  std::string kernel;     ///< kernel label: "stencil::heat::cuda"
  std::string precision;  ///< "float" or "double"
  std::string extents;    ///< extents_key() of the rank's owned box: "8192x8192"
  std::string code_version = current_code_version();  ///< of the build that measured

  /// "device|kernel|precision|extents": entries with the same id replace each other. Throws
  /// gridflow::Error when a field is empty.
  std::string id() const;

  /// GRIDFLOW_VERSION + '+' + GRIDFLOW_GIT_HASH of this build, e.g. "0.1.0+95d76f36bc70".
  static std::string current_code_version();
};

/// "8192x8192" for {8192, 8192}: exact extents, x first. Throws gridflow::Error when empty or
/// when an extent is not positive.
std::string extents_key(const std::vector<std::int64_t>& extents);
/// The current GPU's name and compute capability for device memory; "cpu" for host memory.
std::string device_key(mesh::MemorySpace space);

}  // namespace gridflow::autotune
