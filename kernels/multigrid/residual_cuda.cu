#include "kernels/core/for_each_cuda.cuh"
#include "kernels/multigrid/column_sums_cuda.cuh"
#include "kernels/multigrid/residual_cuda.hpp"

namespace gridflow::kernels::multigrid {

namespace {

// A column-walk op (column_map_cuda): a batch of planes' residuals read before any is stored.
template <class T>
struct Residual {
  mesh::FieldView<const T, 3> u, f;
  mesh::FieldView<T, 3> r;
  PoissonCoefficients<T> c;
  using Value = T;
  __device__ T value(long long i, long long j, long long k) const { return residual_at(u, f, i, j, k, c); }
  __device__ void store(long long i, long long j, long long k, T v) const { r(i, j, k) = v; }
};

template <class T>
struct Laplacian {
  mesh::FieldView<const T, 3> u;
  mesh::FieldView<T, 3> out;
  PoissonCoefficients<T> c;
  __device__ void operator()(long long i, long long j, long long k) const { out(i, j, k) = laplacian_at(u, i, j, k, c); }
};

}  // namespace

template <class T>
void residual_cuda(mesh::FieldView<const T, 3> u, mesh::FieldView<const T, 3> f, mesh::FieldView<T, 3> r,
                   const mesh::Box<3>& box, const PoissonCoefficients<T>& c, StreamHandle stream) {
  column_map_cuda(box, Residual<T>{u, f, r, c}, stream);
}

template <class T>
void apply_laplacian_cuda(mesh::FieldView<const T, 3> u, mesh::FieldView<T, 3> out, const mesh::Box<3>& box,
                          const PoissonCoefficients<T>& c, StreamHandle stream) {
  core::for_each_cuda(box, Laplacian<T>{u, out, c}, stream);
}

#define GRIDFLOW_INSTANTIATE_RESIDUAL_CUDA(T)                                                                       \
  template void residual_cuda<T>(mesh::FieldView<const T, 3>, mesh::FieldView<const T, 3>, mesh::FieldView<T, 3>,  \
                                 const mesh::Box<3>&, const PoissonCoefficients<T>&, StreamHandle);                 \
  template void apply_laplacian_cuda<T>(mesh::FieldView<const T, 3>, mesh::FieldView<T, 3>, const mesh::Box<3>&,   \
                                        const PoissonCoefficients<T>&, StreamHandle);
GRIDFLOW_INSTANTIATE_RESIDUAL_CUDA(float)
GRIDFLOW_INSTANTIATE_RESIDUAL_CUDA(double)
#undef GRIDFLOW_INSTANTIATE_RESIDUAL_CUDA

}  // namespace gridflow::kernels::multigrid
