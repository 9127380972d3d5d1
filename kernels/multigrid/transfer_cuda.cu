#include "kernels/core/for_each_cuda.cuh"
#include "kernels/multigrid/multigrid_point.hpp"
#include "kernels/multigrid/transfer_cuda.hpp"

namespace gridflow::kernels::multigrid {

namespace {

template <class T>
struct Restriction {
  mesh::FieldView<const T, 3> fine;
  mesh::FieldView<T, 3> coarse;
  __device__ void operator()(long long i, long long j, long long k) const { coarse(i, j, k) = restriction_at(fine, i, j, k); }
};

template <class T>
struct ProlongationAndAdd {
  mesh::FieldView<const T, 3> coarse;
  mesh::FieldView<T, 3> fine;
  __device__ void operator()(long long i, long long j, long long k) const { fine(i, j, k) += prolongation_at(coarse, i, j, k); }
};

}  // namespace

template <class T>
void restrict_full_weighting_cuda(mesh::FieldView<const T, 3> fine, mesh::FieldView<T, 3> coarse, const mesh::Box<3>& coarse_box,
                                  StreamHandle stream) {
  core::for_each_cuda(coarse_box, Restriction<T>{fine, coarse}, stream);
}

template <class T>
void prolong_and_add_cuda(mesh::FieldView<const T, 3> coarse, mesh::FieldView<T, 3> fine, const mesh::Box<3>& fine_box,
                          StreamHandle stream) {
  core::for_each_cuda(fine_box, ProlongationAndAdd<T>{coarse, fine}, stream);
}

#define GRIDFLOW_INSTANTIATE_TRANSFER_CUDA(T)                                                                         \
  template void restrict_full_weighting_cuda<T>(mesh::FieldView<const T, 3>, mesh::FieldView<T, 3>, const mesh::Box<3>&, \
                                                StreamHandle);                                                         \
  template void prolong_and_add_cuda<T>(mesh::FieldView<const T, 3>, mesh::FieldView<T, 3>, const mesh::Box<3>&, StreamHandle);
GRIDFLOW_INSTANTIATE_TRANSFER_CUDA(float)
GRIDFLOW_INSTANTIATE_TRANSFER_CUDA(double)
#undef GRIDFLOW_INSTANTIATE_TRANSFER_CUDA

}  // namespace gridflow::kernels::multigrid
