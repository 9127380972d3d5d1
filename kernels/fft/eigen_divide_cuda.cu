#include <cuda_runtime.h>

#include <algorithm>

#include "kernels/fft/eigen_divide_cuda.hpp"
#include "mesh/check.hpp"

namespace gridflow::kernels::fft {

namespace {

struct Extent {
  long long lo[3], n[3], size;
};

template <class T>
__global__ void eigen_divide_kernel(mesh::FieldView<T, 3> f, Extent e, EigenTables<T> tables, T scale) {
  for (long long q = blockIdx.x * (long long)blockDim.x + threadIdx.x; q < e.size; q += (long long)blockDim.x * gridDim.x) {
    const long long i = e.lo[0] + q % e.n[0], j = e.lo[1] + (q / e.n[0]) % e.n[1], k = e.lo[2] + q / (e.n[0] * e.n[1]);
    T& v = f(i, j, k);
    v = eigen_divide_point(v, tables.at(0, i), tables.at(1, j), tables.at(2, k), scale);
  }
}

}  // namespace

template <class T>
void launch_eigen_divide_cuda(mesh::FieldView<T, 3> field, const mesh::Box<3>& box, const EigenTables<T>& tables, T scale,
                              StreamHandle stream) {
  const Extent e{{box.lo[0], box.lo[1], box.lo[2]}, {box.extent(0), box.extent(1), box.extent(2)}, box.size()};
  if (e.size == 0) return;
  const unsigned blocks = static_cast<unsigned>(std::min<long long>((e.size + 255) / 256, 65535));
  eigen_divide_kernel<T><<<blocks, 256, 0, stream>>>(field, e, tables, scale);
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
}

template void launch_eigen_divide_cuda<float>(mesh::FieldView<float, 3>, const mesh::Box<3>&, const EigenTables<float>&,
                                              float, StreamHandle);
template void launch_eigen_divide_cuda<double>(mesh::FieldView<double, 3>, const mesh::Box<3>&, const EigenTables<double>&,
                                               double, StreamHandle);

}  // namespace gridflow::kernels::fft
