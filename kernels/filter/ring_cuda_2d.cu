// The ring filter kernels for 2D fields (the kernel is ring_cuda.cuh; 2D and 3D compile apart).
#include "kernels/filter/ring_cuda.cuh"

namespace gridflow::kernels::filter {

#define GRIDFLOW_INSTANTIATE_RING_CUDA(T, D)                                                                                          \
  template void launch_ring_cuda<T, D>(const FilterTunables&, mesh::FieldView<const T, D>, mesh::FieldView<T, D>, const mesh::Box<D>&, \
                                       const std::array<std::vector<double>, D>&, const Extension<D>&, T, StreamHandle);
GRIDFLOW_INSTANTIATE_RING_CUDA(float, 2)
GRIDFLOW_INSTANTIATE_RING_CUDA(double, 2)
#undef GRIDFLOW_INSTANTIATE_RING_CUDA

}  // namespace gridflow::kernels::filter
