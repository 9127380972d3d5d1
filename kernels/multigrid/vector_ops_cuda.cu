#include "kernels/core/for_each_cuda.cuh"
#include "kernels/multigrid/column_march_cuda.cuh"
#include "kernels/core/reduce_cuda.cuh"
#include "kernels/multigrid/vector_ops_cuda.hpp"
#include "kernels/multigrid/vector_ops_point.hpp"

namespace gridflow::kernels::multigrid {

namespace {

template <class T>
struct Product {
  mesh::FieldView<const T, 3> a, b;
  __device__ double operator()(long long i, long long j, long long k) const { return product_point(a(i, j, k), b(i, j, k)); }
};

template <class T>
struct Axpy {
  T alpha;
  mesh::FieldView<const T, 3> x;
  mesh::FieldView<T, 3> y;
  using Value = T;
  __device__ T value(long long i, long long j, long long k) const { return axpy_point(alpha, x(i, j, k), y(i, j, k)); }
  __device__ void store(long long i, long long j, long long k, T v) const { y(i, j, k) = v; }
};

template <class T>
struct Xpby {
  mesh::FieldView<const T, 3> x;
  T beta;
  mesh::FieldView<T, 3> y;
  using Value = T;
  __device__ T value(long long i, long long j, long long k) const { return xpby_point(x(i, j, k), beta, y(i, j, k)); }
  __device__ void store(long long i, long long j, long long k, T v) const { y(i, j, k) = v; }
};

template <class T>
struct Copy {
  mesh::FieldView<const T, 3> src;
  mesh::FieldView<T, 3> dst;
  using Value = T;
  __device__ T value(long long i, long long j, long long k) const { return src(i, j, k); }
  __device__ void store(long long i, long long j, long long k, T v) const { dst(i, j, k) = v; }
};

}  // namespace

template <class T>
double dot_cuda(mesh::FieldView<const T, 3> a, mesh::FieldView<const T, 3> b, const mesh::Box<3>& box, StreamHandle stream) {
  return core::reduce_cuda<core::Sum>(box, Product<T>{a, b}, stream);
}

template <class T>
void axpy_cuda(T alpha, mesh::FieldView<const T, 3> x, mesh::FieldView<T, 3> y, const mesh::Box<3>& box, StreamHandle stream) {
  column_march_cuda(box, Axpy<T>{alpha, x, y}, stream);
}

template <class T>
void xpby_cuda(mesh::FieldView<const T, 3> x, T beta, mesh::FieldView<T, 3> y, const mesh::Box<3>& box, StreamHandle stream) {
  column_march_cuda(box, Xpby<T>{x, beta, y}, stream);
}

template <class T>
void copy_cuda(mesh::FieldView<const T, 3> src, mesh::FieldView<T, 3> dst, const mesh::Box<3>& box, StreamHandle stream) {
  column_march_cuda(box, Copy<T>{src, dst}, stream);
}

#define GRIDFLOW_INSTANTIATE_VECTOR_OPS_CUDA(T)                                                                         \
  template double dot_cuda<T>(mesh::FieldView<const T, 3>, mesh::FieldView<const T, 3>, const mesh::Box<3>&, StreamHandle); \
  template void axpy_cuda<T>(T, mesh::FieldView<const T, 3>, mesh::FieldView<T, 3>, const mesh::Box<3>&, StreamHandle); \
  template void xpby_cuda<T>(mesh::FieldView<const T, 3>, T, mesh::FieldView<T, 3>, const mesh::Box<3>&, StreamHandle); \
  template void copy_cuda<T>(mesh::FieldView<const T, 3>, mesh::FieldView<T, 3>, const mesh::Box<3>&, StreamHandle);
GRIDFLOW_INSTANTIATE_VECTOR_OPS_CUDA(float)
GRIDFLOW_INSTANTIATE_VECTOR_OPS_CUDA(double)
#undef GRIDFLOW_INSTANTIATE_VECTOR_OPS_CUDA

}  // namespace gridflow::kernels::multigrid
