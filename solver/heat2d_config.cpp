#include "solver/heat2d_config.hpp"

namespace gridflow::solver {

double heat_stable_dt(double a, double dx, double dy) { return 0.5 / (a * (1.0 / (dx * dx) + 1.0 / (dy * dy))); }

MemoryNeed heat_memory_need(const HeatConfig& config, const mesh::Box<2>& owned, int ghost_capacity, mesh::MemorySpace space) {
  const auto precision = config.run.precision;
  const double field = field_bytes(owned, ghost_capacity, precision);
  // Exchange buffers (pinned host staging too on the device) and the boundary values: the ghost
  // layers' size, a few times over.
  const double halo = 2 * halo_bytes(owned, ghost_capacity, precision);
  MemoryNeed need;
  if (space == mesh::MemorySpace::host) {
    need.host_bytes = 3 * field + halo + runtime_host_bytes;  // u, u_next, the initial state while it is set up
  } else {
    need.device_bytes = 2 * field + halo + runtime_device_bytes;
    need.host_bytes = field + halo + runtime_host_bytes;  // the initial state, then the host copy written out
  }
  return need;
}

}  // namespace gridflow::solver
