#include <cuda_runtime.h>

#include "kernels/stencil/heat_cuda.hpp"
#include "kernels/stencil/heat_point.hpp"
#include "mesh/check.hpp"

namespace gridflow::kernels::stencil {

namespace {

// Each thread updates CPT consecutive y-cells of one column, keeping the three rows it needs in
// registers as it walks, so a column of CPT cells costs CPT + 2 loads instead of 3 CPT.
template <class T, int CPT>
__global__ void heat_kernel(const T* __restrict__ in, T* __restrict__ out, long long pitch, int nx, int ny, T cx, T cy,
                            core::NonFiniteWatch watch, long long i0, long long j0_global) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j0 = (blockIdx.y * blockDim.y + threadIdx.y) * CPT;
  if (i >= nx || j0 >= ny) return;
  const T* c = in + j0 * pitch + i;
  T* o = out + j0 * pitch + i;
  T below = __ldg(c - pitch);
  T centre = __ldg(c);
#pragma unroll
  for (int k = 0; k < CPT; ++k) {
    if (j0 + k >= ny) break;
    const T* p = c + k * pitch;
    const T above = __ldg(p + pitch);
    const T value = heat_point(centre, __ldg(p - 1), __ldg(p + 1), below, above, cx, cy);
    o[k * pitch] = value;
    if (!core::finite_value(value) && watch.slot)
      core::record_non_finite(watch.slot, watch.key(watch.step, i0 + i, j0_global + j0 + k));
    below = centre;
    centre = above;
  }
}

template <class T, int CPT>
void launch(const HeatCudaParams& p, const T* in, T* out, long long pitch, int nx, int ny, T cx, T cy, StreamHandle stream,
            const core::NonFiniteWatch& watch, const mesh::Box<2>& update) {
  const dim3 block(p.block_x, p.block_y);
  const int rows = (ny + CPT - 1) / CPT;
  const dim3 grid((nx + p.block_x - 1) / p.block_x, (rows + p.block_y - 1) / p.block_y);
  heat_kernel<T, CPT><<<grid, block, 0, stream>>>(in, out, pitch, nx, ny, cx, cy, watch, update.lo[0], update.lo[1]);
}

}  // namespace

template <class T>
void launch_heat_cuda(const HeatCudaParams& params, mesh::FieldView<const T, 2> in, mesh::FieldView<T, 2> out,
                      const mesh::Box<2>& update, T cx, T cy, StreamHandle stream, const core::NonFiniteWatch& watch) {
  GRIDFLOW_REQUIRE(params.valid(), "invalid heat CUDA parameters");
  if (update.empty()) return;
  const long long pitch = in.stride[1];
  const T* src = in.data + in.offset(update.lo[0], update.lo[1]);
  T* dst = out.data + out.offset(update.lo[0], update.lo[1]);
  const int nx = static_cast<int>(update.extent(0)), ny = static_cast<int>(update.extent(1));
  switch (params.cells_per_thread) {
    case 1: launch<T, 1>(params, src, dst, pitch, nx, ny, cx, cy, stream, watch, update); break;
    case 2: launch<T, 2>(params, src, dst, pitch, nx, ny, cx, cy, stream, watch, update); break;
    case 4: launch<T, 4>(params, src, dst, pitch, nx, ny, cx, cy, stream, watch, update); break;
    case 8: launch<T, 8>(params, src, dst, pitch, nx, ny, cx, cy, stream, watch, update); break;
  }
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
}

template void launch_heat_cuda<float>(const HeatCudaParams&, mesh::FieldView<const float, 2>, mesh::FieldView<float, 2>,
                                      const mesh::Box<2>&, float, float, StreamHandle, const core::NonFiniteWatch&);
template void launch_heat_cuda<double>(const HeatCudaParams&, mesh::FieldView<const double, 2>, mesh::FieldView<double, 2>,
                                       const mesh::Box<2>&, double, double, StreamHandle, const core::NonFiniteWatch&);

}  // namespace gridflow::kernels::stencil
