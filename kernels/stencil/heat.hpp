#pragma once
// The 2D heat stencil family: one interface, the host oracle and the CUDA variant behind it.
#include "kernels/core/non_finite_flag.hpp"
#include "kernels/stencil/heat_params.hpp"
#include "kernels/stencil/heat_ring.hpp"
#include "mesh/box.hpp"
#include "mesh/field.hpp"

namespace gridflow::kernels::stencil {

template <class T>
struct HeatCoefficients {
  T cx;  ///< a dt / dx^2
  T cy;  ///< a dt / dy^2
};

/// Host oracle: out(i,j) = heat_point(in around (i,j)) for (i,j) in `update`, on the Kokkos host
/// execution space. `update` grown by one must lie in in's ghosted box. Blocks.
/// Every variant records the values it writes that are not finite in `watch` (a null slot: none):
/// the step they belong to and their global point; the values written do not change.
template <class T>
void heat_step_host(const mesh::Field<T, 2>& in, mesh::Field<T, 2>& out, const mesh::Box<2>& update,
                    HeatCoefficients<T> c, const core::NonFiniteWatch& watch = {});

/// The same update on whichever memory space the fields live in: the host oracle for host fields,
/// the CUDA kernel with `params` for device fields (asynchronous on `stream`).
template <class T>
void heat_step(const mesh::Field<T, 2>& in, mesh::Field<T, 2>& out, const mesh::Box<2>& update, HeatCoefficients<T> c,
               const HeatCudaParams& params, StreamHandle stream, const core::NonFiniteWatch& watch = {});

/// `steps` heat steps at once (temporal blocking): out on `update` = the values `steps` successive
/// heat_step calls give there, starting from `in`, when each step updates the points of `active`
/// (the grid's interior) and every other point keeps its value, or, where `ring` has values
/// (heat_ring.hpp: in the fields' memory space, its box holding the points read, its active box
/// `active`), the boundary points take its values after each of steps 1..steps-1. Only points of
/// update.grow(steps) that lie in active.grow(1) are read (the rest cannot reach `update`), and
/// they must lie in in's ghosted box; `update` must lie in `active`. Other points of `out` are left
/// as they were. Host fields: `steps` host-oracle steps through scratch fields (the reference).
/// Device fields: one launch of the fused kernel params.stream_cells_x selects (heat_params.hpp;
/// params.fused_steps is not consulted), or the one-step kernel when `steps` is 1. Throws Error when
/// params do not take `steps` steps (HeatCudaParams::fits_shared_memory).
template <class T>
void heat_steps(const mesh::Field<T, 2>& in, mesh::Field<T, 2>& out, const mesh::Box<2>& update,
                const mesh::Box<2>& active, int steps, HeatCoefficients<T> c, const HeatCudaParams& params,
                StreamHandle stream, const core::NonFiniteWatch& watch = {}, const HeatRing<T>& ring = {});

}  // namespace gridflow::kernels::stencil
