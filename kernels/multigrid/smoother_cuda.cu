#include "kernels/core/for_each_cuda.cuh"
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

// Launched over a box whose x extent counts the points of one colour per row: x = 0, 1, ... is
// the x-th point of `colour` in row (j, k) of the real box.
template <class T>
struct RedBlackGaussSeidel {
  mesh::FieldView<const T, 3> read;
  mesh::FieldView<T, 3> write;
  mesh::FieldView<const T, 3> f;
  PoissonCoefficients<T> c;
  long long lo, hi;
  int colour;
  __device__ void operator()(long long x, long long j, long long k) const {
    const long long i = first_of_colour(lo, j, k, colour) + 2 * x;
    if (i <= hi) write(i, j, k) = relaxed_at(read, f, i, j, k, c);
  }
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
  core::for_each_cuda(half, RedBlackGaussSeidel<T>{read_only(u), u, f, c, box.lo[0], box.hi[0], colour}, stream);
}

#define GRIDFLOW_INSTANTIATE_SMOOTHERS_CUDA(T)                                                                           \
  template void weighted_jacobi_sweep_cuda<T>(mesh::FieldView<const T, 3>, mesh::FieldView<T, 3>, mesh::FieldView<const T, 3>, \
                                              const mesh::Box<3>&, const PoissonCoefficients<T>&, T, StreamHandle);    \
  template void red_black_gauss_seidel_sweep_cuda<T>(mesh::FieldView<T, 3>, mesh::FieldView<const T, 3>, const mesh::Box<3>&, \
                                                     int, const PoissonCoefficients<T>&, StreamHandle);
GRIDFLOW_INSTANTIATE_SMOOTHERS_CUDA(float)
GRIDFLOW_INSTANTIATE_SMOOTHERS_CUDA(double)
#undef GRIDFLOW_INSTANTIATE_SMOOTHERS_CUDA

}  // namespace gridflow::kernels::multigrid
