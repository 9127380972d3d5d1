#include "kernels/core/space_dispatch.hpp"

#include <string>

#include "mesh/check.hpp"

namespace gridflow::kernels::core {

void throw_without_cuda(const char* kernel) {
  throw Error(std::string(kernel) + ": device fields in a build without CUDA (configure with -DGRIDFLOW_CUDA=ON)");
}

void require_stream(StreamHandle stream, const char* kernel) {
  if (!stream)
    throw Error(std::string(kernel) + ": device work needs a stream of its owner (mesh::Stream), not the legacy default stream");
}

}  // namespace gridflow::kernels::core
