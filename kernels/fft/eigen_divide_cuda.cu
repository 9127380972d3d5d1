#include "kernels/core/for_each_cuda.cuh"
#include "kernels/fft/eigen_divide_cuda.hpp"

namespace gridflow::kernels::fft {

namespace {

template <class T>
struct EigenDivide {
  mesh::FieldView<T, 3> f;
  EigenTables<T> tables;
  T scale;
  __device__ void operator()(long long i, long long j, long long k) const {
    T& v = f(i, j, k);
    v = eigen_divide_point(v, tables.at(0, i), tables.at(1, j), tables.at(2, k), scale);
  }
};

}  // namespace

template <class T>
void launch_eigen_divide_cuda(mesh::FieldView<T, 3> field, const mesh::Box<3>& box, const EigenTables<T>& tables, T scale,
                              StreamHandle stream) {
  core::for_each_cuda(box, EigenDivide<T>{field, tables, scale}, stream, core::ThreadLayout::linear);
}

template void launch_eigen_divide_cuda<float>(mesh::FieldView<float, 3>, const mesh::Box<3>&, const EigenTables<float>&,
                                              float, StreamHandle);
template void launch_eigen_divide_cuda<double>(mesh::FieldView<double, 3>, const mesh::Box<3>&, const EigenTables<double>&,
                                               double, StreamHandle);

}  // namespace gridflow::kernels::fft
