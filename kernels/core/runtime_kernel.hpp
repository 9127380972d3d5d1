#pragma once
// RuntimeKernel: a __global__ function compiled while the program runs, from CUDA C++ source the
// program generated (deck formulas, say), for the architecture of the current device: NVRTC
// compiles it to a cubin, the runtime API loads it (cudaLibraryLoadData, CUDA 12+; no libcuda link).
// Compiled once per (source, kernel name, device architecture, NVRTC version): kernels already
// loaded in this process are reused, and cubins are kept on disk in a KernelCache, so a second run
// compiles nothing. Exists in builds with CUDA only (runtime_kernel.cpp); call it from the device
// branch of run_on_space.
#include <array>
#include <filesystem>
#include <string>

#include "kernels/core/kernel_cache.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::core {

/// What this process did to get its runtime kernels: tests check a warm cache compiles nothing.
struct RuntimeKernelCounts {
  int compiled = 0;          ///< NVRTC compilations
  int loaded_from_disk = 0;  ///< cubins taken from the disk cache
  int reused = 0;            ///< kernels already loaded in this process
  int corrupt_entries = 0;   ///< cache files that did not match, compiled again
};
RuntimeKernelCounts runtime_kernel_counts();
/// Unloads every runtime kernel of this process (the next request reads the disk cache). Blocks.
void forget_runtime_kernels();

class RuntimeKernel {
 public:
  /// Compiles (or finds) the extern "C" kernel `name` of `source` for the current device. `label`
  /// says what the source computes (the deck key of its formula), for messages. Throws Error
  /// with NVRTC's log when the source does not compile.
  RuntimeKernel(const std::string& source, const std::string& name, const std::string& label,
                const std::filesystem::path& cache_dir = default_kernel_cache_dir());

  /// Launches on `stream`; `args[i]` points at the i-th parameter's value. Does not block.
  void launch(std::array<unsigned, 3> blocks, std::array<unsigned, 3> threads, void** args, StreamHandle stream) const;

 private:
  const void* m_kernel = nullptr;  // a cudaKernel_t, launched through cudaLaunchKernel
  std::string m_label;
};

}  // namespace gridflow::kernels::core
