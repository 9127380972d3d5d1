#pragma once
// run_on_space: the one place where a kernel picks its variant by the memory space of its fields:
// the host oracle for host fields, the CUDA launcher for device fields. Launchers (declared in
// *_cuda.hpp, defined in .cu) exist only in builds with CUDA, so the device variant is handed in
// as a generic lambda, `[&](auto) { launch_x_cuda<T>(...); }`: its body is compiled only when
// the build has CUDA, and kernels need no `#if GRIDFLOW_HAVE_CUDA` of their own.
#include <utility>

#include "gridflow/config.hpp"
#include "mesh/host_device.hpp"
#include "mesh/memory_space.hpp"

namespace gridflow::kernels::core {

/// Whether this build has the CUDA variants.
inline constexpr bool cuda_built = GRIDFLOW_HAVE_CUDA != 0;

/// What a device variant is called with; only builds with CUDA ever make one.
struct CudaBuild {};

/// Throws Error: `kernel` was given device fields in a build without CUDA.
[[noreturn]] void throw_without_cuda(const char* kernel);

/// host() for host memory, device(CudaBuild{}) for device memory, whose work goes on `stream`;
/// returns what it returns. `kernel` names the kernel in errors ("multigrid::residual").
template <class Host, class Device>
decltype(auto) run_on_space(const char* kernel, mesh::MemorySpace space, StreamHandle stream, Host&& host, Device&& device) {
  (void)stream;
  if (space == mesh::MemorySpace::device) {
    if constexpr (cuda_built) return std::forward<Device>(device)(CudaBuild{});
    else throw_without_cuda(kernel);
  }
  return std::forward<Host>(host)();
}

}  // namespace gridflow::kernels::core
