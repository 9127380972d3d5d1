#include "kernels/core/for_each_cuda.cuh"
#include "kernels/multigrid/column_sums_cuda.cuh"
#include "kernels/core/reduce_cuda.cuh"
#include "kernels/multigrid/multigrid_point.hpp"
#include "kernels/multigrid/vector_ops_cuda.hpp"
#include "kernels/multigrid/vector_ops_point.hpp"

namespace gridflow::kernels::multigrid {

namespace {

template <class A, class B>
struct Product {
  mesh::FieldView<const A, 3> a;
  mesh::FieldView<const B, 3> b;
  __device__ double operator()(long long i, long long j, long long k) const { return product_point(a(i, j, k), b(i, j, k)); }
};

template <class T>
struct Axpy {
  T alpha;
  mesh::FieldView<const T, 3> x;
  mesh::FieldView<T, 3> y;
  __device__ void operator()(long long i, long long j, long long k) const { y(i, j, k) = axpy_point(alpha, x(i, j, k), y(i, j, k)); }
};

template <class X, class T>
struct Xpby {
  mesh::FieldView<const X, 3> x;
  T beta;
  mesh::FieldView<T, 3> y;
  __device__ void operator()(long long i, long long j, long long k) const {
    y(i, j, k) = xpby_point(static_cast<T>(x(i, j, k)), beta, y(i, j, k));
  }
};

template <class T>
struct Copy {
  mesh::FieldView<const T, 3> src;
  mesh::FieldView<T, 3> dst;
  __device__ void operator()(long long i, long long j, long long k) const { dst(i, j, k) = src(i, j, k); }
};

template <class T>
struct LaplacianAndDot {
  mesh::FieldView<const T, 3> p;
  mesh::FieldView<T, 3> q;
  PoissonCoefficients<T> c;
  struct Value {
    T p, q;
  };
  __device__ Value value(long long i, long long j, long long k) const { return {p(i, j, k), laplacian_at(p, i, j, k, c)}; }
  __device__ void store(long long i, long long j, long long k, const Value& v) const { q(i, j, k) = v.q; }
  __device__ void add(ColumnSums<1>& acc, const Value& v) const { acc.v[0] += product_point(v.p, v.q); }
};

template <class T, class C>
struct CgUpdate {
  T alpha;
  mesh::FieldView<const T, 3> p, q;
  mesh::FieldView<T, 3> u, r;
  mesh::FieldView<C, 3> rounded;  // r rounded to C, where its data is given
  struct Value {
    T u, r;
  };
  __device__ Value value(long long i, long long j, long long k) const {
    return {axpy_point(alpha, p(i, j, k), u(i, j, k)), axpy_point(-alpha, q(i, j, k), r(i, j, k))};
  }
  __device__ void store(long long i, long long j, long long k, const Value& v) const {
    u(i, j, k) = v.u;
    r(i, j, k) = v.r;
    if (rounded.data) rounded(i, j, k) = static_cast<C>(v.r);
  }
  __device__ void add(ColumnSums<1>& acc, const Value& v) const { acc.v[0] += product_point(v.r, v.r); }
};

template <class T, class Z>
struct Dot2 {
  mesh::FieldView<const T, 3> r;
  mesh::FieldView<const Z, 3> z;
  mesh::FieldView<const T, 3> q;
  struct Value {
    double rz, zq;
  };
  __device__ Value value(long long i, long long j, long long k) const {
    const Z zv = z(i, j, k);
    return {product_point(r(i, j, k), zv), product_point(zv, q(i, j, k))};
  }
  __device__ void store(long long, long long, long long, const Value&) const {}
  __device__ void add(ColumnSums<2>& acc, const Value& v) const {
    acc.v[0] += v.rz;
    acc.v[1] += v.zq;
  }
};

}  // namespace

template <class T>
double laplacian_and_dot_cuda(mesh::FieldView<const T, 3> p, mesh::FieldView<T, 3> q, const mesh::Box<3>& box,
                              const PoissonCoefficients<T>& c, StreamHandle stream) {
  return column_sums_cuda<1>(box, LaplacianAndDot<T>{p, q, c}, stream).v[0];
}

template <class T, class C>
double cg_update_cuda(T alpha, mesh::FieldView<const T, 3> p, mesh::FieldView<const T, 3> q, mesh::FieldView<T, 3> u,
                      mesh::FieldView<T, 3> r, mesh::FieldView<C, 3> rounded, const mesh::Box<3>& box, StreamHandle stream) {
  return column_sums_cuda<1>(box, CgUpdate<T, C>{alpha, p, q, u, r, rounded}, stream).v[0];
}

template <class T, class Z>
std::array<double, 2> dot2_cuda(mesh::FieldView<const T, 3> r, mesh::FieldView<const Z, 3> z, mesh::FieldView<const T, 3> q,
                                const mesh::Box<3>& box, StreamHandle stream) {
  const auto sums = column_sums_cuda<2>(box, Dot2<T, Z>{r, z, q}, stream);
  return {sums.v[0], sums.v[1]};
}

template <class A, class B>
double dot_cuda(mesh::FieldView<const A, 3> a, mesh::FieldView<const B, 3> b, const mesh::Box<3>& box, StreamHandle stream) {
  return core::reduce_cuda<core::Sum>(box, Product<A, B>{a, b}, stream);
}

template <class T>
void axpy_cuda(T alpha, mesh::FieldView<const T, 3> x, mesh::FieldView<T, 3> y, const mesh::Box<3>& box, StreamHandle stream) {
  core::for_each_cuda(box, Axpy<T>{alpha, x, y}, stream);
}

template <class X, class T>
void xpby_cuda(mesh::FieldView<const X, 3> x, T beta, mesh::FieldView<T, 3> y, const mesh::Box<3>& box, StreamHandle stream) {
  core::for_each_cuda(box, Xpby<X, T>{x, beta, y}, stream);
}

template <class T>
void copy_cuda(mesh::FieldView<const T, 3> src, mesh::FieldView<T, 3> dst, const mesh::Box<3>& box, StreamHandle stream) {
  core::for_each_cuda(box, Copy<T>{src, dst}, stream);
}

#define GRIDFLOW_INSTANTIATE_VECTOR_OPS_CUDA(T)                                                                         \
  template void axpy_cuda<T>(T, mesh::FieldView<const T, 3>, mesh::FieldView<T, 3>, const mesh::Box<3>&, StreamHandle); \
  template void copy_cuda<T>(mesh::FieldView<const T, 3>, mesh::FieldView<T, 3>, const mesh::Box<3>&, StreamHandle);      \
  template double laplacian_and_dot_cuda<T>(mesh::FieldView<const T, 3>, mesh::FieldView<T, 3>, const mesh::Box<3>&,      \
                                            const PoissonCoefficients<T>&, StreamHandle);
#define GRIDFLOW_INSTANTIATE_VECTOR_OPS_CUDA_OF(T, Z)                                                                   \
  template double dot_cuda<T, Z>(mesh::FieldView<const T, 3>, mesh::FieldView<const Z, 3>, const mesh::Box<3>&, StreamHandle); \
  template void xpby_cuda<Z, T>(mesh::FieldView<const Z, 3>, T, mesh::FieldView<T, 3>, const mesh::Box<3>&, StreamHandle); \
  template double cg_update_cuda<T, Z>(T, mesh::FieldView<const T, 3>, mesh::FieldView<const T, 3>, mesh::FieldView<T, 3>, \
                                       mesh::FieldView<T, 3>, mesh::FieldView<Z, 3>, const mesh::Box<3>&, StreamHandle); \
  template std::array<double, 2> dot2_cuda<T, Z>(mesh::FieldView<const T, 3>, mesh::FieldView<const Z, 3>,               \
                                                 mesh::FieldView<const T, 3>, const mesh::Box<3>&, StreamHandle);
GRIDFLOW_INSTANTIATE_VECTOR_OPS_CUDA(float)
GRIDFLOW_INSTANTIATE_VECTOR_OPS_CUDA(double)
GRIDFLOW_INSTANTIATE_VECTOR_OPS_CUDA_OF(float, float)
GRIDFLOW_INSTANTIATE_VECTOR_OPS_CUDA_OF(double, double)
GRIDFLOW_INSTANTIATE_VECTOR_OPS_CUDA_OF(double, float)
#undef GRIDFLOW_INSTANTIATE_VECTOR_OPS_CUDA_OF
#undef GRIDFLOW_INSTANTIATE_VECTOR_OPS_CUDA

}  // namespace gridflow::kernels::multigrid
