#include "kernels/multigrid/field_checks.hpp"

#include "gridflow/config.hpp"

namespace gridflow::kernels::multigrid {

bool on_device(mesh::MemorySpace space) {
  if (space == mesh::MemorySpace::host) return false;
  GRIDFLOW_REQUIRE(GRIDFLOW_HAVE_CUDA, "device fields in a build without CUDA");
  return true;
}

}  // namespace gridflow::kernels::multigrid
