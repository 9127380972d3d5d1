#pragma once
// The halo transport (NCCL device to device, or host-staged MPI) as a tuning candidate of the
// deep-halo solvers: when it is tuned and the search-space parameter that chooses it.
#include "autotune/search_space.hpp"
#include "halo/transport.hpp"
#include "mesh/field.hpp"

namespace gridflow::autotune {

/// Whether the halo transport is tuned: device fields on several ranks, `asked` (halo.transport) auto,
/// and `resolved` (what "auto" chose) NCCL, so NCCL is built in and every rank has its own GPU.
bool halo_transport_is_tuned(halo::TransportChoice asked, mesh::MemorySpace space, halo::Transport resolved, int ranks);

/// Adds "nccl" (1: NCCL, 0: host-staged MPI; default `resolved`) to `space` when `tuned`.
void add_halo_transport(autotune::SearchSpace& space, bool tuned, halo::Transport resolved);

/// The transport a configuration chose: its "nccl" when it has one, else `otherwise`.
halo::Transport halo_transport_of(const autotune::Configuration& c, halo::Transport otherwise);

}  // namespace gridflow::autotune
