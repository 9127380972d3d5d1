#pragma once
// The 2D heat stencil family: one interface, the host oracle and the CUDA variant behind it.
#include "kernels/stencil/heat_params.hpp"
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
template <class T>
void heat_step_host(const mesh::Field<T, 2>& in, mesh::Field<T, 2>& out, const mesh::Box<2>& update,
                    HeatCoefficients<T> c);

/// The same update on whichever memory space the fields live in: the host oracle for host fields,
/// the CUDA kernel with `params` for device fields (asynchronous on `stream`).
template <class T>
void heat_step(const mesh::Field<T, 2>& in, mesh::Field<T, 2>& out, const mesh::Box<2>& update, HeatCoefficients<T> c,
               const HeatCudaParams& params = {}, StreamHandle stream = nullptr);

}  // namespace gridflow::kernels::stencil
