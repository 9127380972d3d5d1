#include "kernels/core/for_each_cuda.cuh"
#include "kernels/multigrid/dense_solve.hpp"
#include "kernels/multigrid/dense_solve_cuda.hpp"

namespace gridflow::kernels::multigrid {

namespace {

// One thread per output point; every thread of a warp reads the same f(q), and rows p, p+1, ...
// of the symmetric inverse are its columns, read one after another per q.
template <class T>
struct DenseRow {
  const T* inverse;
  mesh::FieldView<const T, 3> f;
  mesh::FieldView<T, 3> u;
  core::BoxPoints<3> box;
  __device__ void operator()(long long i, long long j, long long k) const { u(i, j, k) = dense_row_at(inverse, f, box, i, j, k); }
};

}  // namespace

template <class T>
void apply_dense_inverse_cuda(const T* inverse, mesh::FieldView<const T, 3> f, mesh::FieldView<T, 3> u, const mesh::Box<3>& box,
                              StreamHandle stream) {
  core::for_each_cuda(box, DenseRow<T>{inverse, f, u, core::BoxPoints<3>::of(box)}, stream);
}

template void apply_dense_inverse_cuda<float>(const float*, mesh::FieldView<const float, 3>, mesh::FieldView<float, 3>,
                                              const mesh::Box<3>&, StreamHandle);
template void apply_dense_inverse_cuda<double>(const double*, mesh::FieldView<const double, 3>, mesh::FieldView<double, 3>,
                                               const mesh::Box<3>&, StreamHandle);

}  // namespace gridflow::kernels::multigrid
