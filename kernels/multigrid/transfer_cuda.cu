#include "kernels/core/for_each_cuda.cuh"
#include "kernels/multigrid/column_march_cuda.cuh"
#include "kernels/multigrid/multigrid_point.hpp"
#include "kernels/multigrid/transfer_cuda.hpp"

namespace gridflow::kernels::multigrid {

namespace {

template <class T>
struct Restriction {
  mesh::FieldView<const T, 3> fine;
  mesh::FieldView<T, 3> coarse;
  Coarsening c;
  using Value = T;
  __device__ T value(long long i, long long j, long long k) const { return restriction_at(fine, i, j, k, c); }
  __device__ void store(long long i, long long j, long long k, T v) const { coarse(i, j, k) = v; }
};

template <class T>
struct ProlongationAndAdd {
  mesh::FieldView<const T, 3> coarse;
  mesh::FieldView<T, 3> fine;
  Coarsening c;
  using Value = T;
  // fine + P coarse, as `fine(i, j, k) += ...` computes it.
  __device__ T value(long long i, long long j, long long k) const { return fine(i, j, k) + prolongation_at(coarse, i, j, k, c); }
  __device__ void store(long long i, long long j, long long k, T v) const { fine(i, j, k) = v; }
};

}  // namespace

template <class T>
void restrict_full_weighting_cuda(mesh::FieldView<const T, 3> fine, mesh::FieldView<T, 3> coarse, const mesh::Box<3>& coarse_box,
                                  const Coarsening& c, StreamHandle stream) {
  column_march_cuda(coarse_box, Restriction<T>{fine, coarse, c}, stream);
}

template <class T>
void prolong_and_add_cuda(mesh::FieldView<const T, 3> coarse, mesh::FieldView<T, 3> fine, const mesh::Box<3>& fine_box,
                          const Coarsening& c, StreamHandle stream) {
  column_march_cuda(fine_box, ProlongationAndAdd<T>{coarse, fine, c}, stream);
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
