#include <algorithm>

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

// Two adjacent fine points of a row per thread, the values of prolongation_at with its operations
// in its order: both read the same four coarse rows (j0 or j1, k0 or k1), whose addresses are found
// once a plane, and at most three coarse points of each. A point at a time, the address arithmetic
// of eight loads kept the kernel at a third of the copy bandwidth (ncu, H100).
constexpr int prolong_threads_x = 32, prolong_threads_y = 8;

template <class T>
__global__ void __launch_bounds__(prolong_threads_x* prolong_threads_y)
    prolong_pairs_kernel(mesh::FieldView<const T, 3> coarse, mesh::FieldView<T, 3> fine, core::BoxPoints<3> b, Coarsening c) {
  const long long x = 2 * (static_cast<long long>(blockIdx.x) * prolong_threads_x + threadIdx.x);
  const long long y = static_cast<long long>(blockIdx.y) * prolong_threads_y + threadIdx.y;
  if (x >= b.n[0] || y >= b.n[1]) return;
  const int si = c.shift[0], sj = c.shift[1], sk = c.shift[2];
  const long long i = b.lo[0] + x, j = b.lo[1] + y;
  const long long j0 = j >> sj, j1 = (j + sj) >> sj, base = i >> si;
  const bool pair = x + 1 < b.n[0];
  // Offsets from coarse point `base` of the two points each fine point interpolates along x.
  const int a0 = static_cast<int>((i >> si) - base), b0 = static_cast<int>(((i + si) >> si) - base);
  const int a1 = static_cast<int>(((i + 1) >> si) - base), b1 = static_cast<int>(((i + 1 + si) >> si) - base);
  // Planes two at a time, all loads before the stores, so that each thread has four fine values
  // in flight (one at a time left the kernel waiting on memory).
  for (long long z = 2 * static_cast<long long>(blockIdx.z); z < b.n[2]; z += 2 * static_cast<long long>(gridDim.z)) {
    T value[2][2], old[2][2];
    T* out[2];
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      if (z + h >= b.n[2]) continue;
      const long long k = b.lo[2] + z + h, k0 = k >> sk, k1 = (k + sk) >> sk;
      const T* rows[2][2] = {{&coarse(base, j0, k0), &coarse(base, j1, k0)}, {&coarse(base, j0, k1), &coarse(base, j1, k1)}};
      const auto at = [&](int a, int bb) {
        const auto along_x = [&](const T* row) { return T(0.5) * (row[a] + row[bb]); };
        const auto along_xy = [&](int kk) { return T(0.5) * (along_x(rows[kk][0]) + along_x(rows[kk][1])); };
        return T(0.5) * (along_xy(0) + along_xy(1));
      };
      out[h] = &fine(i, j, k);
      value[h][0] = at(a0, b0);
      old[h][0] = out[h][0];
      if (pair) {
        value[h][1] = at(a1, b1);
        old[h][1] = out[h][1];
      }
    }
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      if (z + h >= b.n[2]) continue;
      out[h][0] = old[h][0] + value[h][0];
      if (pair) out[h][1] = old[h][1] + value[h][1];
    }
  }
}

}  // namespace

template <class T>
void restrict_full_weighting_cuda(mesh::FieldView<const T, 3> fine, mesh::FieldView<T, 3> coarse, const mesh::Box<3>& coarse_box,
                                  const Coarsening& c, StreamHandle stream) {
  core::for_each_cuda(coarse_box, Restriction<T>{fine, coarse, c}, stream);
}

template <class T>
void prolong_and_add_cuda(mesh::FieldView<const T, 3> coarse, mesh::FieldView<T, 3> fine, const mesh::Box<3>& fine_box,
                          const Coarsening& c, StreamHandle stream) {
  if (fine_box.empty()) return;
  const auto b = core::BoxPoints<3>::of(fine_box);
  constexpr long long points_x = 2 * prolong_threads_x;
  GRIDFLOW_REQUIRE((b.n[0] + points_x - 1) / points_x < (1ll << 31) && b.n[1] / prolong_threads_y < 65535,
                   "multigrid::prolong_and_add: box too large for the CUDA launch");
  const dim3 grid(static_cast<unsigned>((b.n[0] + points_x - 1) / points_x),
                  static_cast<unsigned>((b.n[1] + prolong_threads_y - 1) / prolong_threads_y),
                  static_cast<unsigned>(std::min<long long>((b.n[2] + 1) / 2, 65535)));
  prolong_pairs_kernel<T><<<grid, dim3(prolong_threads_x, prolong_threads_y), 0, stream>>>(coarse, fine, b, c);
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
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
