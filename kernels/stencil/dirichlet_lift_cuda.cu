#include <cuda_runtime.h>

#include <algorithm>

#include "kernels/stencil/dirichlet_lift_cuda.hpp"
#include "kernels/stencil/dirichlet_lift_point.hpp"
#include "mesh/check.hpp"

namespace gridflow::kernels::stencil {

namespace {

struct LiftExtent {
  long long lo[3], e[3], n[3], size;
};

template <class T>
__global__ void dirichlet_lift_kernel(mesh::FieldView<const T, 3> u, mesh::FieldView<const T, 3> f, LiftExtent x,
                                      PoissonCoefficients<T> k, mesh::FieldView<T, 3> b) {
  for (long long q = blockIdx.x * (long long)blockDim.x + threadIdx.x; q < x.size; q += (long long)blockDim.x * gridDim.x) {
    const long long i = x.lo[0] + q % x.e[0], j = x.lo[1] + (q / x.e[0]) % x.e[1], z = x.lo[2] + q / (x.e[0] * x.e[1]);
    b(i, j, z) = dirichlet_lift_point(
        f(i, j, z), boundary_part(u(i - 1, j, z), i - 1, x.n[0]), boundary_part(u(i + 1, j, z), i + 1, x.n[0]),
        boundary_part(u(i, j - 1, z), j - 1, x.n[1]), boundary_part(u(i, j + 1, z), j + 1, x.n[1]),
        boundary_part(u(i, j, z - 1), z - 1, x.n[2]), boundary_part(u(i, j, z + 1), z + 1, x.n[2]), k);
  }
}

}  // namespace

template <class T>
void launch_dirichlet_lift_cuda(mesh::FieldView<const T, 3> u, mesh::FieldView<const T, 3> f, const mesh::Box<3>& box,
                                const std::array<mesh::Index, 3>& n, const PoissonCoefficients<T>& k,
                                mesh::FieldView<T, 3> b, StreamHandle stream) {
  const LiftExtent x{{box.lo[0], box.lo[1], box.lo[2]}, {box.extent(0), box.extent(1), box.extent(2)}, {n[0], n[1], n[2]},
                     box.size()};
  if (x.size == 0) return;
  const unsigned blocks = static_cast<unsigned>(std::min<long long>((x.size + 255) / 256, 65535));
  dirichlet_lift_kernel<T><<<blocks, 256, 0, stream>>>(u, f, x, k, b);
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
}

template void launch_dirichlet_lift_cuda<float>(mesh::FieldView<const float, 3>, mesh::FieldView<const float, 3>,
                                                const mesh::Box<3>&, const std::array<mesh::Index, 3>&,
                                                const PoissonCoefficients<float>&, mesh::FieldView<float, 3>, StreamHandle);
template void launch_dirichlet_lift_cuda<double>(mesh::FieldView<const double, 3>, mesh::FieldView<const double, 3>,
                                                 const mesh::Box<3>&, const std::array<mesh::Index, 3>&,
                                                 const PoissonCoefficients<double>&, mesh::FieldView<double, 3>,
                                                 StreamHandle);

}  // namespace gridflow::kernels::stencil
