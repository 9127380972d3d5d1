// NVRTC compilation, the disk cache and loading through the runtime API (builds with CUDA only).
#include "kernels/core/runtime_kernel.hpp"

#include <cuda_runtime_api.h>
#include <nvrtc.h>

#include <map>
#include <mutex>
#include <vector>

#include "mesh/check.hpp"

namespace gridflow::kernels::core {

namespace {

struct Loaded {
  cudaLibrary_t library = nullptr;
  cudaKernel_t kernel = nullptr;
};

std::mutex registry_mutex;
std::map<std::string, Loaded> registry;  // by identity
RuntimeKernelCounts counts;

void check_nvrtc(nvrtcResult rc, const char* call, const std::string& label) {
  if (rc != NVRTC_SUCCESS)
    throw Error(label + ": " + call + " failed: " + nvrtcGetErrorString(rc));
}

/// The cubin of `source` for `arch`, compiled by NVRTC with `options`; Error with the log.
std::string compile(const std::string& source, const std::vector<std::string>& options, const std::string& label) {
  nvrtcProgram program = nullptr;
  check_nvrtc(nvrtcCreateProgram(&program, source.c_str(), "gridflow_generated.cu", 0, nullptr, nullptr),
              "nvrtcCreateProgram", label);
  std::vector<const char*> option_pointers;
  for (const auto& o : options) option_pointers.push_back(o.c_str());
  const nvrtcResult rc = nvrtcCompileProgram(program, static_cast<int>(option_pointers.size()), option_pointers.data());
  std::size_t log_size = 0;
  nvrtcGetProgramLogSize(program, &log_size);
  std::string log(log_size, '\0');
  if (log_size > 0) nvrtcGetProgramLog(program, log.data());
  if (rc != NVRTC_SUCCESS) {
    nvrtcDestroyProgram(&program);
    throw Error(label + ": NVRTC could not compile the generated kernel (" + nvrtcGetErrorString(rc) + "):\n" + log +
                "\nsource:\n" + source);
  }
  std::size_t size = 0;
  check_nvrtc(nvrtcGetCUBINSize(program, &size), "nvrtcGetCUBINSize", label);
  std::string cubin(size, '\0');
  check_nvrtc(nvrtcGetCUBIN(program, cubin.data()), "nvrtcGetCUBIN", label);
  nvrtcDestroyProgram(&program);
  return cubin;
}

/// Loads `cubin` and finds `name`; false (nothing loaded) when the driver refuses it.
bool load(const std::string& cubin, const std::string& name, Loaded& out) {
  if (cudaLibraryLoadData(&out.library, cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0) != cudaSuccess) {
    cudaGetLastError();  // not sticky: clear it
    return false;
  }
  if (cudaLibraryGetKernel(&out.kernel, out.library, name.c_str()) != cudaSuccess) {
    cudaGetLastError();
    cudaLibraryUnload(out.library);
    return false;
  }
  return true;
}

}  // namespace

RuntimeKernelCounts runtime_kernel_counts() {
  const std::lock_guard<std::mutex> lock(registry_mutex);
  return counts;
}

void forget_runtime_kernels() {
  const std::lock_guard<std::mutex> lock(registry_mutex);
  GRIDFLOW_CUDA_CHECK(cudaDeviceSynchronize());  // no launch of theirs may still be queued
  for (auto& [identity, loaded] : registry) GRIDFLOW_CUDA_CHECK(cudaLibraryUnload(loaded.library));
  registry.clear();
}

RuntimeKernel::RuntimeKernel(const std::string& source, const std::string& name, const std::string& label,
                             const std::filesystem::path& cache_dir)
    : m_label(label) {
  int device = 0, major = 0, minor = 0, nvrtc_major = 0, nvrtc_minor = 0;
  GRIDFLOW_CUDA_CHECK(cudaGetDevice(&device));
  GRIDFLOW_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  GRIDFLOW_CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  check_nvrtc(nvrtcVersion(&nvrtc_major, &nvrtc_minor), "nvrtcVersion", label);
  // IEEE semantics as in the rest of the project: no contraction into FMAs, exact division and sqrt.
  const std::vector<std::string> options{"--gpu-architecture=sm_" + std::to_string(major) + std::to_string(minor), "--fmad=false",
                                         "--prec-div=true", "--prec-sqrt=true", "--ftz=false", "--std=c++17"};
  std::string identity = "nvrtc " + std::to_string(nvrtc_major) + "." + std::to_string(nvrtc_minor) + "\n";
  for (const auto& o : options) identity += o + " ";
  identity += "\nkernel " + name + "\n" + source;

  const std::lock_guard<std::mutex> lock(registry_mutex);
  if (const auto found = registry.find(identity); found != registry.end()) {
    ++counts.reused;
    m_kernel = reinterpret_cast<const void*>(found->second.kernel);
    return;
  }
  const KernelCache cache(cache_dir);
  Loaded loaded;
  bool corrupt = false;
  const auto cached = cache.load(identity, &corrupt);
  if (cached && load(*cached, name, loaded)) {
    ++counts.loaded_from_disk;
  } else {
    if (corrupt || cached) ++counts.corrupt_entries;  // unreadable, or a cubin the driver refused
    const std::string cubin = compile(source, options, label);
    ++counts.compiled;
    if (!load(cubin, name, loaded)) throw Error(label + ": the driver did not load the compiled kernel '" + name + "'");
    cache.store(identity, cubin);
  }
  registry.emplace(identity, loaded);
  m_kernel = reinterpret_cast<const void*>(loaded.kernel);
}

void RuntimeKernel::launch(std::array<unsigned, 3> blocks, std::array<unsigned, 3> threads, void** args,
                           StreamHandle stream) const {
  GRIDFLOW_CUDA_CHECK(cudaLaunchKernel(m_kernel, dim3(blocks[0], blocks[1], blocks[2]), dim3(threads[0], threads[1], threads[2]),
                                       args, 0, static_cast<cudaStream_t>(stream)));
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
}

}  // namespace gridflow::kernels::core
