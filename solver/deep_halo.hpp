#pragma once
// The deep halo of the stencil solvers (heat and Jacobi). With ghost width g a rank exchanges g
// ghost layers and then takes g steps (Jacobi: sweeps) before the next exchange, recomputing the
// overlap with its neighbours instead of communicating; a launch may take several of those steps
// at once (temporal blocking). DeepHaloTunables is what such a solver may switch between two steps
// without changing a bit of its result: every launch shape computes each point with the same point
// function, every width recomputes the same overlap values, every transport delivers the same
// ghost values, and fused steps are the same steps taken in shared memory.
#include <string>

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

}  // namespace gridflow::solver
