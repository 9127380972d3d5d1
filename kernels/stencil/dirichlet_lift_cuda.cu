#include <cuda_runtime.h>

#include "kernels/core/box_points.hpp"
#include "kernels/stencil/dirichlet_lift_cuda.hpp"
#include "kernels/stencil/dirichlet_lift_point.hpp"
#include "mesh/check.hpp"

namespace gridflow::kernels::stencil {

namespace {

constexpr int lift_block_x = 32, lift_block_y = 8;
/// Points along z per thread: their loads are issued together, before any store.
constexpr int lift_planes = 4;

/// The grid's intervals per axis, as a kernel argument.
struct GridIntervals {
  std::int64_t n[3];
};

/// One thread per (x, y) of the box and `lift_planes` consecutive z: the offsets step by the z
/// strides, so a point away from the boundary costs a load of f and a store of b, not an index
/// computation. Each point reads f and u at itself and its boundary neighbours only and writes b
/// at itself, so loading a thread's f values before its stores is safe where b is u or f.
template <class T>
__global__ void __launch_bounds__(lift_block_x* lift_block_y)
    dirichlet_lift_kernel(mesh::FieldView<const T, 3> u, const T* f, mesh::FieldView<T, 3> b, core::BoxPoints<3> box,
                          GridIntervals grid, PoissonCoefficients<T> k) {
  const int x = blockIdx.x * lift_block_x + threadIdx.x, y = blockIdx.y * lift_block_y + threadIdx.y;
  const int z0 = blockIdx.z * lift_planes;
  if (x >= box.n[0] || y >= box.n[1]) return;
  std::int64_t p[3] = {box.lo[0] + x, box.lo[1] + y, box.lo[2] + z0};
  const std::int64_t o = u.offset(p[0], p[1], p[2]), ob = b.offset(p[0], p[1], p[2]);
  const int planes = static_cast<int>(min(static_cast<long long>(lift_planes), box.n[2] - z0));
  T value[lift_planes];
#pragma unroll
  for (int q = 0; q < lift_planes; ++q)
    if (q < planes) {
      value[q] = dirichlet_lift_point(u.data, f, o + q * u.stride[2], u.stride, p, grid.n, k);
      ++p[2];
    }
#pragma unroll
  for (int q = 0; q < lift_planes; ++q)
    if (q < planes) b.data[ob + q * b.stride[2]] = value[q];
}

}  // namespace

template <class T>
void launch_dirichlet_lift_cuda(mesh::FieldView<const T, 3> u, mesh::FieldView<const T, 3> f, const mesh::Box<3>& box,
                                const std::array<mesh::Index, 3>& n, const PoissonCoefficients<T>& k,
                                mesh::FieldView<T, 3> b, StreamHandle stream) {
  if (box.empty()) return;
  const auto points = core::BoxPoints<3>::of(box);
  GRIDFLOW_REQUIRE(points.n[0] < (1ll << 31), "Dirichlet lift: box too large for the CUDA kernel");
  const dim3 blocks(static_cast<unsigned>((points.n[0] + lift_block_x - 1) / lift_block_x),
                    static_cast<unsigned>((points.n[1] + lift_block_y - 1) / lift_block_y),
                    static_cast<unsigned>((points.n[2] + lift_planes - 1) / lift_planes));
  GRIDFLOW_REQUIRE(points.n[1] <= 65535ll * lift_block_y && points.n[2] <= 65535ll * lift_planes,
                   "Dirichlet lift: box too large for the CUDA grid");
  dirichlet_lift_kernel<T><<<blocks, dim3(lift_block_x, lift_block_y), 0, stream>>>(u, f.data, b, points, {{n[0], n[1], n[2]}}, k);
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
}

template <class T>
void prepare_dirichlet_lift_cuda() {
  cudaFuncAttributes attributes;
  GRIDFLOW_CUDA_CHECK(cudaFuncGetAttributes(&attributes, dirichlet_lift_kernel<T>));
}

template void prepare_dirichlet_lift_cuda<float>();
template void prepare_dirichlet_lift_cuda<double>();
template void launch_dirichlet_lift_cuda<float>(mesh::FieldView<const float, 3>, mesh::FieldView<const float, 3>,
                                                const mesh::Box<3>&, const std::array<mesh::Index, 3>&,
                                                const PoissonCoefficients<float>&, mesh::FieldView<float, 3>, StreamHandle);
template void launch_dirichlet_lift_cuda<double>(mesh::FieldView<const double, 3>, mesh::FieldView<const double, 3>,
                                                 const mesh::Box<3>&, const std::array<mesh::Index, 3>&,
                                                 const PoissonCoefficients<double>&, mesh::FieldView<double, 3>,
                                                 StreamHandle);

}  // namespace gridflow::kernels::stencil
