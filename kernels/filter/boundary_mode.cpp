#include "kernels/filter/boundary_mode.hpp"

#include "mesh/check.hpp"

namespace gridflow::kernels::filter {

const char* to_string(BoundaryMode mode) {
  switch (mode) {
    case BoundaryMode::constant: return "constant";
    case BoundaryMode::nearest: return "nearest";
    case BoundaryMode::reflect: return "reflect";
    case BoundaryMode::mirror: return "mirror";
    case BoundaryMode::wrap: return "wrap";
  }
  return "?";
}

BoundaryMode parse_boundary_mode(const std::string& name) {
  for (auto m : {BoundaryMode::constant, BoundaryMode::nearest, BoundaryMode::reflect, BoundaryMode::mirror, BoundaryMode::wrap})
    if (name == to_string(m)) return m;
  throw Error("filter: unknown boundary mode '" + name + "' (constant, nearest, reflect, mirror or wrap)");
}

}  // namespace gridflow::kernels::filter
