#include "solver/deep_halo.hpp"

#include "mesh/check.hpp"

namespace gridflow::solver {

void check_deep_halo(const std::string& solver, int ghost_width, int fused_steps, halo::Transport transport,
                     int ghost_capacity, mesh::MemorySpace space, int ranks) {
  if (ghost_width < 1 || ghost_width > ghost_capacity)
    throw Error(solver + ": ghost width " + std::to_string(ghost_width) + " is outside 1.." +
                std::to_string(ghost_capacity) + ", the ghost layers the fields were allocated with");
  if (fused_steps < 1) throw Error(solver + ": " + std::to_string(fused_steps) + " fused steps: must be >= 1");
  if (ranks > 1 && fused_steps > ghost_width)
    throw Error(solver + ": " + std::to_string(fused_steps) + " fused steps exceed the ghost width " +
                std::to_string(ghost_width) + " (the ghosts are valid for that many steps)");
  if (transport == halo::Transport::nccl && space != mesh::MemorySpace::device)
    throw Error(solver + ": the nccl halo transport needs device fields");
}

}  // namespace gridflow::solver
