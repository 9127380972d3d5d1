#include "kernels/core/for_each_cuda.cuh"
#include "kernels/stencil/dirichlet_lift_cuda.hpp"
#include "kernels/stencil/dirichlet_lift_point.hpp"

namespace gridflow::kernels::stencil {

namespace {

template <class T>
struct DirichletLift {
  mesh::FieldView<const T, 3> u, f;
  mesh::FieldView<T, 3> b;
  long long n[3];  // the grid's intervals per axis
  PoissonCoefficients<T> k;
  __device__ void operator()(long long i, long long j, long long z) const {
    b(i, j, z) = dirichlet_lift_point(
        f(i, j, z), boundary_part<T>(u, i - 1, j, z, i - 1, n[0]), boundary_part<T>(u, i + 1, j, z, i + 1, n[0]),
        boundary_part<T>(u, i, j - 1, z, j - 1, n[1]), boundary_part<T>(u, i, j + 1, z, j + 1, n[1]),
        boundary_part<T>(u, i, j, z - 1, z - 1, n[2]), boundary_part<T>(u, i, j, z + 1, z + 1, n[2]), k);
  }
};

}  // namespace

template <class T>
void launch_dirichlet_lift_cuda(mesh::FieldView<const T, 3> u, mesh::FieldView<const T, 3> f, const mesh::Box<3>& box,
                                const std::array<mesh::Index, 3>& n, const PoissonCoefficients<T>& k,
                                mesh::FieldView<T, 3> b, StreamHandle stream) {
  core::for_each_cuda(box, DirichletLift<T>{u, f, b, {n[0], n[1], n[2]}, k}, stream, core::ThreadLayout::linear);
}

template void launch_dirichlet_lift_cuda<float>(mesh::FieldView<const float, 3>, mesh::FieldView<const float, 3>,
                                                const mesh::Box<3>&, const std::array<mesh::Index, 3>&,
                                                const PoissonCoefficients<float>&, mesh::FieldView<float, 3>, StreamHandle);
template void launch_dirichlet_lift_cuda<double>(mesh::FieldView<const double, 3>, mesh::FieldView<const double, 3>,
                                                 const mesh::Box<3>&, const std::array<mesh::Index, 3>&,
                                                 const PoissonCoefficients<double>&, mesh::FieldView<double, 3>,
                                                 StreamHandle);

}  // namespace gridflow::kernels::stencil
