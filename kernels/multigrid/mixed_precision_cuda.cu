#include <algorithm>
#include <vector>

#include "kernels/core/for_each_cuda.cuh"
#include "kernels/multigrid/column_march_cuda.cuh"
#include "kernels/core/reduce_cuda.cuh"
#include "kernels/multigrid/mixed_precision_cuda.hpp"
#include "kernels/multigrid/vector_ops_point.hpp"

namespace gridflow::kernels::multigrid {

namespace {

constexpr int norm_block_x = 32, norm_block_y = 8;
/// Blocks the residual kernel aims at: enough to fill every SM of an H100/H200 a few times over.
constexpr long long norm_target_blocks = 2048;

// One thread per (x, y) column of the box, walking a contiguous run of z-planes (blockIdx.z's
// share: neighbouring planes are read while still in L2): it writes r and adds up the squares of
// its points in z order; the block merges its threads' sums (halving tree) into one partial. The
// grid depends only on the box's extents, so the sum has the same bits on every run.
template <class T, class C>
__global__ void __launch_bounds__(norm_block_x* norm_block_y)
    residual_and_norm_kernel(mesh::FieldView<const T, 3> u, mesh::FieldView<const T, 3> f, mesh::FieldView<C, 3> r,
                             core::BoxPoints<3> b, PoissonCoefficients<T> c, double* partial) {
  __shared__ double slots[norm_block_x * norm_block_y];
  const long long x = blockIdx.x * norm_block_x + threadIdx.x, y = blockIdx.y * norm_block_y + threadIdx.y;
  double acc = 0;
  if (x < b.n[0] && y < b.n[1]) {
    const long long i = b.lo[0] + x, j = b.lo[1] + y;
    const long long per_block = (b.n[2] + gridDim.z - 1) / gridDim.z;
    const long long z_end = (blockIdx.z + 1) * per_block < b.n[2] ? (blockIdx.z + 1) * per_block : b.n[2];
    for (long long z = blockIdx.z * per_block; z < z_end; ++z) {
      const long long k = b.lo[2] + z;
      const T res = residual_at(u, f, i, j, k, c);
      r(i, j, k) = static_cast<C>(res);
      acc += product_point(res, res);
    }
  }
  core::block_reduce<core::Sum, core::BlockTree::halving>(acc, slots);
  if (threadIdx.x == 0 && threadIdx.y == 0)
    partial[blockIdx.x + gridDim.x * (blockIdx.y + static_cast<long long>(gridDim.y) * blockIdx.z)] = slots[0];
}

template <class C, class T>
struct AddCorrection {
  mesh::FieldView<const C, 3> e;
  mesh::FieldView<T, 3> u;
  using Value = T;
  // u + T(e), as `u(i, j, k) += T(e(i, j, k))` computes it.
  __device__ T value(long long i, long long j, long long k) const { return u(i, j, k) + static_cast<T>(e(i, j, k)); }
  __device__ void store(long long i, long long j, long long k, T v) const { u(i, j, k) = v; }
};

template <class From, class To>
struct Convert {
  mesh::FieldView<const From, 3> src;
  mesh::FieldView<To, 3> dst;
  using Value = To;
  __device__ To value(long long i, long long j, long long k) const { return static_cast<To>(src(i, j, k)); }
  __device__ void store(long long i, long long j, long long k, To v) const { dst(i, j, k) = v; }
};

}  // namespace

template <class T, class C>
double residual_and_norm_cuda(mesh::FieldView<const T, 3> u, mesh::FieldView<const T, 3> f, mesh::FieldView<C, 3> r,
                              const mesh::Box<3>& box, const PoissonCoefficients<T>& c, StreamHandle stream) {
  if (box.empty()) return 0;
  const auto b = core::BoxPoints<3>::of(box);
  GRIDFLOW_REQUIRE(b.n[1] / norm_block_y < 65535, "multigrid::residual_and_norm: box too large for the CUDA launch");
  const long long gx = (b.n[0] + norm_block_x - 1) / norm_block_x, gy = (b.n[1] + norm_block_y - 1) / norm_block_y;
  const long long gz = std::max(1ll, std::min(b.n[2], (norm_target_blocks + gx * gy - 1) / (gx * gy)));
  const long long blocks = gx * gy * gz;
  auto partial = mesh::Buffer::on_stream(blocks * sizeof(double), stream);
  residual_and_norm_kernel<T, C><<<dim3(static_cast<unsigned>(gx), static_cast<unsigned>(gy), static_cast<unsigned>(gz)),
                                   dim3(norm_block_x, norm_block_y), 0, stream>>>(u, f, r, b, c, static_cast<double*>(partial.data()));
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
  std::vector<double> host(static_cast<std::size_t>(blocks));
  GRIDFLOW_CUDA_CHECK(cudaMemcpyAsync(host.data(), partial.data(), blocks * sizeof(double), cudaMemcpyDeviceToHost, stream));
  GRIDFLOW_CUDA_CHECK(cudaStreamSynchronize(stream));
  double total = 0;
  for (double v : host) total += v;
  return total;
}

template <class C, class T>
void add_correction_cuda(mesh::FieldView<const C, 3> e, mesh::FieldView<T, 3> u, const mesh::Box<3>& box, StreamHandle stream) {
  column_march_cuda(box, AddCorrection<C, T>{e, u}, stream);
}

template <class From, class To>
void convert_cuda(mesh::FieldView<const From, 3> src, mesh::FieldView<To, 3> dst, const mesh::Box<3>& box, StreamHandle stream) {
  column_march_cuda(box, Convert<From, To>{src, dst}, stream);
}

#define GRIDFLOW_INSTANTIATE_MIXED_CUDA(T, C)                                                                          \
  template double residual_and_norm_cuda<T, C>(mesh::FieldView<const T, 3>, mesh::FieldView<const T, 3>,             \
                                               mesh::FieldView<C, 3>, const mesh::Box<3>&, const PoissonCoefficients<T>&, \
                                               StreamHandle);                                                         \
  template void add_correction_cuda<C, T>(mesh::FieldView<const C, 3>, mesh::FieldView<T, 3>, const mesh::Box<3>&,    \
                                          StreamHandle);                                                              \
  template void convert_cuda<T, C>(mesh::FieldView<const T, 3>, mesh::FieldView<C, 3>, const mesh::Box<3>&, StreamHandle); \
  template void convert_cuda<C, T>(mesh::FieldView<const C, 3>, mesh::FieldView<T, 3>, const mesh::Box<3>&, StreamHandle);
GRIDFLOW_INSTANTIATE_MIXED_CUDA(double, float)
#undef GRIDFLOW_INSTANTIATE_MIXED_CUDA
template double residual_and_norm_cuda<float, float>(mesh::FieldView<const float, 3>, mesh::FieldView<const float, 3>,
                                                     mesh::FieldView<float, 3>, const mesh::Box<3>&,
                                                     const PoissonCoefficients<float>&, StreamHandle);

}  // namespace gridflow::kernels::multigrid
