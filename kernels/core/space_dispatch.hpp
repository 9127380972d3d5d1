#pragma once
// run_on_space: the one place where a kernel picks its variant by the memory space of its fields:
// the host oracle for host fields, the CUDA launcher for device fields. Launchers (declared in
// *_cuda.hpp, defined in .cu) exist only in builds with CUDA, so the device variant is handed in
// as a generic lambda, `[&](auto) { launch_x_cuda<T>(...); }`: its body is compiled only when
// the build has CUDA, and kernels need no `#if GRIDFLOW_HAVE_CUDA` of their own.
//
// The execution handle is the StreamHandle every kernel takes explicitly, with no default: device
// work goes on the stream of the object that owns it (a solver's, a halo exchange's, a test's
// mesh::Stream), never on the legacy default stream (nullptr), which would neither order it with
// that owner's work (our streams are non-blocking) nor overlap it with anything. Host variants
// ignore it; callers with host fields only may pass nullptr.
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
/// Throws Error when `stream` is the legacy default stream (nullptr), naming `kernel`.
void require_stream(StreamHandle stream, const char* kernel);

/// host() for host memory; for device memory, device(CudaBuild{}), whose work goes on `stream`
/// (required: not nullptr). Returns what the variant returns. `kernel` names the kernel in errors
/// ("multigrid::residual").
template <class Host, class Device>
decltype(auto) run_on_space(const char* kernel, mesh::MemorySpace space, [[maybe_unused]] StreamHandle stream, Host&& host,
                            Device&& device) {
  if (space == mesh::MemorySpace::device) {
    if constexpr (cuda_built) {
      require_stream(stream, kernel);
      return std::forward<Device>(device)(CudaBuild{});
    } else {
      throw_without_cuda(kernel);
    }
  }
  return std::forward<Host>(host)();
}

}  // namespace gridflow::kernels::core
