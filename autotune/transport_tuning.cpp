#include "autotune/transport_tuning.hpp"

namespace gridflow::autotune {

bool halo_transport_is_tuned(halo::TransportChoice asked, mesh::MemorySpace space, halo::Transport resolved, int ranks) {
  return space == mesh::MemorySpace::device && ranks > 1 && asked == halo::TransportChoice::automatic &&
         resolved == halo::Transport::nccl;
}

void add_halo_transport(autotune::SearchSpace& space, bool tuned, halo::Transport resolved) {
  if (tuned) space.add(autotune::Parameter::boolean("nccl", resolved == halo::Transport::nccl));
}

halo::Transport halo_transport_of(const autotune::Configuration& c, halo::Transport otherwise) {
  if (!c.has("nccl")) return otherwise;
  return c.at("nccl") ? halo::Transport::nccl : halo::Transport::mpi;
}

}  // namespace gridflow::autotune
