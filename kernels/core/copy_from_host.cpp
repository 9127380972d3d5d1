#include "kernels/core/copy_from_host.hpp"

#include <cstring>

#include "kernels/core/space_dispatch.hpp"
#include "mesh/device.hpp"

namespace gridflow::kernels::core {

void copy_from_host(void* dst, mesh::MemorySpace space, const void* src, std::size_t bytes, StreamHandle stream) {
  if (bytes == 0) return;
  run_on_space(
      "core::copy_from_host", space, stream, [&] { std::memcpy(dst, src, bytes); },
      [&](auto) {
        mesh::copy_bytes_async(dst, space, src, mesh::MemorySpace::host, bytes, stream);
        mesh::synchronize(stream);
      });
}

}  // namespace gridflow::kernels::core
