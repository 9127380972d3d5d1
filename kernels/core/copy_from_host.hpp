#pragma once
// Set-up copies of host-computed tables (sines, eigenvalues) into a kernel's memory space, on the
// owner's stream instead of the legacy default stream.
#include <cstddef>

#include "mesh/host_device.hpp"
#include "mesh/memory_space.hpp"

namespace gridflow::kernels::core {

/// dst (in `space`) = `bytes` of host memory at src. Device memory: queued on `stream` after the
/// work already there, and finished on return, so src may go away. Blocks.
void copy_from_host(void* dst, mesh::MemorySpace space, const void* src, std::size_t bytes, StreamHandle stream);

}  // namespace gridflow::kernels::core
