#pragma once
// Launcher of the CUDA heat kernel; no CUDA syntax, so plain C++ can call it.
#include "kernels/core/non_finite_flag.hpp"
#include "kernels/stencil/heat_params.hpp"
#include "kernels/stencil/heat_ring.hpp"
#include "mesh/box.hpp"
#include "mesh/field_view.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::stencil {

/// out(i,j) = heat_point(in around (i,j)) for (i,j) in `update`; both views on the device with the
/// same layout. Asynchronous on `stream`; checks the launch. Non-finite values written go to
/// `watch` (heat.hpp).
template <class T>
void launch_heat_cuda(const HeatCudaParams& params, mesh::FieldView<const T, 2> in, mesh::FieldView<T, 2> out,
                      const mesh::Box<2>& update, T cx, T cy, StreamHandle stream, const core::NonFiniteWatch& watch = {});

/// heat_steps on the device: `steps` steps in one launch, shared-memory tiles of params' block
/// shape grown by `steps`; `active` and `ring` (device memory) as in heat_steps. Throws Error when
/// the tile does not fit in shared memory.
template <class T>
void launch_heat_fused_cuda(const HeatCudaParams& params, mesh::FieldView<const T, 2> in, mesh::FieldView<T, 2> out,
                            const mesh::Box<2>& update, const mesh::Box<2>& active, int steps, T cx, T cy,
                            const HeatRing<T>& ring, StreamHandle stream, const core::NonFiniteWatch& watch = {});

/// heat_steps on the device by the streaming kernel (params.stream_cells_x > 0, heat_params.hpp):
/// `steps` steps in one launch, warps walking strips of the update box; `active` and `ring` (device
/// memory) as in heat_steps. The two views must have one layout with rows aligned to
/// stream_cells_x values (Field's are). Throws Error for more steps than it takes.
template <class T>
void launch_heat_stream_cuda(const HeatCudaParams& params, mesh::FieldView<const T, 2> in, mesh::FieldView<T, 2> out,
                             const mesh::Box<2>& update, const mesh::Box<2>& active, int steps, T cx, T cy,
                             const HeatRing<T>& ring, StreamHandle stream, const core::NonFiniteWatch& watch = {});

}  // namespace gridflow::kernels::stencil
