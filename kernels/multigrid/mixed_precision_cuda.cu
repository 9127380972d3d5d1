#include "kernels/core/for_each_cuda.cuh"
#include "kernels/multigrid/column_sums_cuda.cuh"
#include "kernels/multigrid/mixed_precision_cuda.hpp"
#include "kernels/multigrid/vector_ops_point.hpp"

namespace gridflow::kernels::multigrid {

namespace {

// f - A u, stored in C (and in T where `exact` has data); its square (of the T value) summed in
// column order.
template <class T, class C>
struct ResidualAndNorm {
  mesh::FieldView<const T, 3> u, f;
  mesh::FieldView<T, 3> exact;
  mesh::FieldView<C, 3> r;
  PoissonCoefficients<T> c;
  using Value = T;
  __device__ T value(long long i, long long j, long long k) const { return residual_at(u, f, i, j, k, c); }
  __device__ void store(long long i, long long j, long long k, T v) const {
    if (exact.data) exact(i, j, k) = v;
    r(i, j, k) = static_cast<C>(v);
  }
  __device__ void add(ColumnSums<1>& acc, T v) const { acc.v[0] += product_point(v, v); }
};

template <class C, class T>
struct AddCorrection {
  mesh::FieldView<const C, 3> e;
  mesh::FieldView<T, 3> u;
  __device__ void operator()(long long i, long long j, long long k) const { u(i, j, k) += static_cast<T>(e(i, j, k)); }
};

template <class From, class To>
struct Convert {
  mesh::FieldView<const From, 3> src;
  mesh::FieldView<To, 3> dst;
  __device__ void operator()(long long i, long long j, long long k) const { dst(i, j, k) = static_cast<To>(src(i, j, k)); }
};

}  // namespace

template <class T, class C>
double residual_and_norm_cuda(mesh::FieldView<const T, 3> u, mesh::FieldView<const T, 3> f, mesh::FieldView<T, 3> exact,
                              mesh::FieldView<C, 3> r, const mesh::Box<3>& box, const PoissonCoefficients<T>& c, StreamHandle stream) {
  return column_sums_cuda<1>(box, ResidualAndNorm<T, C>{u, f, exact, r, c}, stream).v[0];
}

template <class C, class T>
void add_correction_cuda(mesh::FieldView<const C, 3> e, mesh::FieldView<T, 3> u, const mesh::Box<3>& box, StreamHandle stream) {
  core::for_each_cuda(box, AddCorrection<C, T>{e, u}, stream);
}

template <class From, class To>
void convert_cuda(mesh::FieldView<const From, 3> src, mesh::FieldView<To, 3> dst, const mesh::Box<3>& box, StreamHandle stream) {
  core::for_each_cuda(box, Convert<From, To>{src, dst}, stream);
}

#define GRIDFLOW_INSTANTIATE_MIXED_CUDA(T, C)                                                                          \
  template double residual_and_norm_cuda<T, C>(mesh::FieldView<const T, 3>, mesh::FieldView<const T, 3>,             \
                                               mesh::FieldView<T, 3>, mesh::FieldView<C, 3>, const mesh::Box<3>&,      \
                                               const PoissonCoefficients<T>&, StreamHandle);                          \
  template void add_correction_cuda<C, T>(mesh::FieldView<const C, 3>, mesh::FieldView<T, 3>, const mesh::Box<3>&,    \
                                          StreamHandle);                                                              \
  template void convert_cuda<T, C>(mesh::FieldView<const T, 3>, mesh::FieldView<C, 3>, const mesh::Box<3>&, StreamHandle); \
  template void convert_cuda<C, T>(mesh::FieldView<const C, 3>, mesh::FieldView<T, 3>, const mesh::Box<3>&, StreamHandle);
GRIDFLOW_INSTANTIATE_MIXED_CUDA(double, float)
template void convert_cuda<float, float>(mesh::FieldView<const float, 3>, mesh::FieldView<float, 3>, const mesh::Box<3>&, StreamHandle);
#undef GRIDFLOW_INSTANTIATE_MIXED_CUDA
template double residual_and_norm_cuda<float, float>(mesh::FieldView<const float, 3>, mesh::FieldView<const float, 3>,
                                                     mesh::FieldView<float, 3>, mesh::FieldView<float, 3>, const mesh::Box<3>&,
                                                     const PoissonCoefficients<float>&, StreamHandle);

}  // namespace gridflow::kernels::multigrid
