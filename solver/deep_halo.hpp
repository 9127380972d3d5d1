#pragma once
// The deep halo of the stencil solvers (heat and Jacobi). With ghost width g a rank exchanges g
// ghost layers and then takes g steps (Jacobi: sweeps) before the next exchange, recomputing the
// overlap with its neighbours instead of communicating; a launch may take several of those steps
// at once (temporal blocking). DeepHaloTunables is what such a solver may switch between two steps
// without changing a bit of its result: every launch shape computes each point with the same point
// function, every width recomputes the same overlap values, every transport delivers the same
// ghost values, and fused steps are the same steps taken in shared memory.
#include <cstdint>
#include <string>

#include "halo/halo_exchange_set.hpp"
#include "halo/transport.hpp"
#include "mesh/memory_space.hpp"

namespace gridflow::solver {

/// `CudaParams`: the launch shape of the solver's CUDA kernel (kernels/stencil/*_params.hpp).
template <class CudaParams>
struct DeepHaloTunables {
  CudaParams cuda;      ///< launch shape of the CUDA kernel (device fields)
  int ghost_width = 1;  ///< ghost layers exchanged = steps between exchanges; 1..the fields' ghost layers
  /// Steps one launch takes (temporal blocking, device fields; host fields take one per launch).
  /// On several ranks at most ghost_width: the ghosts are valid that many steps deep.
  int fused_steps = 1;
  halo::Transport transport = halo::Transport::mpi;  ///< how the exchanges travel (several ranks)
};

/// Throws Error, starting with `solver` ("heat solver"), unless ghost_width is in
/// 1..ghost_capacity (the ghost layers the fields were allocated with), fused_steps >= 1 and, on
/// several ranks, <= ghost_width, and the transport is MPI or the fields are on the device.
void check_deep_halo(const std::string& solver, int ghost_width, int fused_steps, halo::Transport transport,
                     int ghost_capacity, mesh::MemorySpace space, int ranks);

template <class CudaParams>
void check_deep_halo(const std::string& solver, const DeepHaloTunables<CudaParams>& tunables, int ghost_capacity,
                     mesh::MemorySpace space, int ranks) {
  check_deep_halo(solver, tunables.ghost_width, tunables.fused_steps, tunables.transport, ghost_capacity, space, ranks);
}

/// The ghost width a deep-halo solver settled on, and the one its exchanges then used.
struct GhostWidthUse {
  int chosen = 1;  ///< the width the tuning left the solver with: its choice, or the requested width
  /// The width of every exchange made after the tuning, read from the exchanges themselves
  /// (HaloExchangeSet's count); `chosen` when none was made (one rank, or no step after the tuning).
  int ran = 1;
  std::int64_t exchanges = 0;  ///< exchanges made after the tuning (0 on one rank)
};

/// What a solver whose tuning left it at ghost width `chosen` used between two tallies of its
/// exchanges (exchanges_by_width() when the tuning ended, and now). Throws Error when the
/// exchanges in between used several widths: a solver switches widths only while it is tuned.
GhostWidthUse ghost_width_use(int chosen, const halo::ExchangeTally& after_tuning, const halo::ExchangeTally& now);

}  // namespace gridflow::solver
