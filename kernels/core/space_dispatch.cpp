#include "kernels/core/space_dispatch.hpp"

#include <string>

#include "mesh/check.hpp"

namespace gridflow::kernels::core {

void throw_without_cuda(const char* kernel) {
  throw Error(std::string(kernel) + ": device fields in a build without CUDA (configure with -DGRIDFLOW_CUDA=ON)");
}

}  // namespace gridflow::kernels::core
