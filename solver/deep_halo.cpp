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

GhostWidthUse ghost_width_use(int chosen, const halo::ExchangeTally& after_tuning, const halo::ExchangeTally& now) {
  GhostWidthUse use;
  use.chosen = use.ran = chosen;
  int widths_used = 0;
  for (const auto& [width, count] : now) {
    const auto before = after_tuning.find(width);
    const std::int64_t since = count - (before == after_tuning.end() ? 0 : before->second);
    if (since == 0) continue;
    ++widths_used;
    use.ran = width;
    use.exchanges += since;
  }
  if (widths_used > 1)
    throw Error("deep halo: the exchanges after the tuning used " + std::to_string(widths_used) +
                " ghost widths; a solver switches widths only while it is tuned");
  return use;
}

}  // namespace gridflow::solver
