#include "kernels/core/for_each_cuda.cuh"
#include "kernels/multigrid/multigrid_point.hpp"
#include "kernels/multigrid/transfer_cuda.hpp"

namespace gridflow::kernels::multigrid {

namespace {

template <class T>
struct Restriction {
  mesh::FieldView<const T, 3> fine;
  mesh::FieldView<T, 3> coarse;
  Coarsening c;
  __device__ void operator()(long long i, long long j, long long k) const { coarse(i, j, k) = restriction_at(fine, i, j, k, c); }
};

template <class T>
struct ProlongationAndAdd {
  mesh::FieldView<const T, 3> coarse;
  mesh::FieldView<T, 3> fine;
  Coarsening c;
  __device__ void operator()(long long i, long long j, long long k) const { fine(i, j, k) += prolongation_at(coarse, i, j, k, c); }
};

}  // namespace

template <class T>
void restrict_full_weighting_cuda(mesh::FieldView<const T, 3> fine, mesh::FieldView<T, 3> coarse, const mesh::Box<3>& coarse_box,
                                  const Coarsening& c, StreamHandle stream) {
  core::for_each_cuda(coarse_box, Restriction<T>{fine, coarse, c}, stream);
}

template <class T>
void prolong_and_add_cuda(mesh::FieldView<const T, 3> coarse, mesh::FieldView<T, 3> fine, const mesh::Box<3>& fine_box,
                          const Coarsening& c, StreamHandle stream) {
  core::for_each_cuda(fine_box, ProlongationAndAdd<T>{coarse, fine, c}, stream);
}

#define GRIDFLOW_INSTANTIATE_TRANSFER_CUDA(T)                                                                         \
  template void restrict_full_weighting_cuda<T>(mesh::FieldView<const T, 3>, mesh::FieldView<T, 3>, const mesh::Box<3>&, \
                                                const Coarsening&, StreamHandle);                                      \
  template void prolong_and_add_cuda<T>(mesh::FieldView<const T, 3>, mesh::FieldView<T, 3>, const mesh::Box<3>&,       \
                                        const Coarsening&, StreamHandle);
GRIDFLOW_INSTANTIATE_TRANSFER_CUDA(float)
GRIDFLOW_INSTANTIATE_TRANSFER_CUDA(double)
#undef GRIDFLOW_INSTANTIATE_TRANSFER_CUDA

}  // namespace gridflow::kernels::multigrid
