#include "kernels/core/for_each_cuda.cuh"
#include "kernels/multigrid/bounds_cuda.cuh"
#include "kernels/multigrid/column_sums_cuda.cuh"
#include "kernels/multigrid/smoother_cuda.hpp"

namespace gridflow::kernels::multigrid {

namespace {

template <class T>
struct WeightedJacobi {
  mesh::FieldView<const T, 3> in;
  mesh::FieldView<T, 3> out;
  mesh::FieldView<const T, 3> f;
  PoissonCoefficients<T> c;
  T weight;
  __device__ void operator()(long long i, long long j, long long k) const { out(i, j, k) = weighted_jacobi_at(in, f, i, j, k, c, weight); }
};

// A column-walk op (column_map_cuda) over a box whose x extent counts the points of one colour
// per row: x = 0, 1, ... is the x-th point of `colour` in row (j, k) of the real box. The points of
// a colour read only the other's, so a batch of planes may be read before any is written.
template <class T>
struct RedBlackGaussSeidel {
  mesh::FieldView<const T, 3> read;
  mesh::FieldView<T, 3> write;
  mesh::FieldView<const T, 3> f;
  PoissonCoefficients<T> c;
  long long lo, hi;
  int colour;
  using Value = T;
  __device__ long long point(long long x, long long j, long long k) const { return first_of_colour(lo, j, k, colour) + 2 * x; }
  __device__ T value(long long x, long long j, long long k) const {
    const long long i = point(x, j, k);
    return i <= hi ? relaxed_at(read, f, i, j, k, c) : T(0);
  }
  __device__ void store(long long x, long long j, long long k, T v) const {
    const long long i = point(x, j, k);
    if (i <= hi) write(i, j, k) = v;
  }
};

// Zero everywhere but at the points of `colour` in the box, which relax from zero neighbours:
// the same jacobi_point of the same values (+0) as a colour sweep after a fill with zeros.
template <class T>
struct RedBlackFromZero {
  mesh::FieldView<T, 3> u;
  mesh::FieldView<const T, 3> f;
  PoissonCoefficients<T> c;
  Bounds box;
  int colour;
  using Value = T;
  __device__ T value(long long i, long long j, long long k) const {
    if (!box.holds(i, j, k) || colour_of(i, j, k) != colour) return T(0);
    const T zero = T(0);
    return stencil::jacobi_point(zero, zero, zero, zero, zero, zero, f(i, j, k), c);
  }
  __device__ void store(long long i, long long j, long long k, T v) const { u(i, j, k) = v; }
};

}  // namespace

template <class T>
void weighted_jacobi_sweep_cuda(mesh::FieldView<const T, 3> in, mesh::FieldView<T, 3> out, mesh::FieldView<const T, 3> f,
                                const mesh::Box<3>& box, const PoissonCoefficients<T>& c, T weight, StreamHandle stream) {
  core::for_each_cuda(box, WeightedJacobi<T>{in, out, f, c, weight}, stream);
}

template <class T>
void red_black_gauss_seidel_sweep_cuda(mesh::FieldView<T, 3> u, mesh::FieldView<const T, 3> f, const mesh::Box<3>& box,
                                       int colour, const PoissonCoefficients<T>& c, StreamHandle stream) {
  mesh::Box<3> half = box;
  half.lo[0] = 0;
  half.hi[0] = (box.extent(0) + 1) / 2 - 1;  // a row of n points holds at most ceil(n/2) of one colour
  column_map_cuda(half, RedBlackGaussSeidel<T>{read_only(u), u, f, c, box.lo[0], box.hi[0], colour}, stream);
}

template <class T>
void red_black_gauss_seidel_sweep_from_zero_cuda(mesh::FieldView<T, 3> u, mesh::FieldView<const T, 3> f, const mesh::Box<3>& box,
                                                 const mesh::Box<3>& allocation, int colour, const PoissonCoefficients<T>& c,
                                                 StreamHandle stream) {
  column_map_cuda(allocation, RedBlackFromZero<T>{u, f, c, Bounds::of(box), colour}, stream);
}

#define GRIDFLOW_INSTANTIATE_SMOOTHERS_CUDA(T)                                                                           \
  template void weighted_jacobi_sweep_cuda<T>(mesh::FieldView<const T, 3>, mesh::FieldView<T, 3>, mesh::FieldView<const T, 3>, \
                                              const mesh::Box<3>&, const PoissonCoefficients<T>&, T, StreamHandle);    \
  template void red_black_gauss_seidel_sweep_cuda<T>(mesh::FieldView<T, 3>, mesh::FieldView<const T, 3>, const mesh::Box<3>&, \
                                                     int, const PoissonCoefficients<T>&, StreamHandle);   \
  template void red_black_gauss_seidel_sweep_from_zero_cuda<T>(mesh::FieldView<T, 3>, mesh::FieldView<const T, 3>,         \
                                                               const mesh::Box<3>&, const mesh::Box<3>&, int,              \
                                                               const PoissonCoefficients<T>&, StreamHandle);
GRIDFLOW_INSTANTIATE_SMOOTHERS_CUDA(float)
GRIDFLOW_INSTANTIATE_SMOOTHERS_CUDA(double)
#undef GRIDFLOW_INSTANTIATE_SMOOTHERS_CUDA

}  // namespace gridflow::kernels::multigrid
