#include <algorithm>

#include "kernels/core/for_each_cuda.cuh"
#include "kernels/multigrid/multigrid_point.hpp"
#include "kernels/multigrid/transfer_cuda.hpp"
#include "kernels/multigrid/walk_length.hpp"

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

// Full weighting of the residual, a thread a coarse column (I, J) walking a chunk of its planes K.
// Each fine plane z gives the residuals at the thread's 3 x 3 fine points (2I-1..2I+1,
// 2J-1..2J+1) and their x-then-y weighting, which coarse planes K and K + 1 share at z = 2K + 1.
// u at the nine points is kept for three planes in registers (the residuals' z neighbours); the 12
// x and y neighbours outside them and f's nine values are loaded with the plane. A coarse point
// costs two fine planes of 30 loads, where the residual field cost a write and a read of every
// fine point. A thread walks up to 16 coarse planes (one fine plane of 33 recomputed), fewer where
// the grid would otherwise hold under 1024 blocks: a walk's steps are dependent loads, and on the
// small levels (31^3 coarse points and less) 16 of them took 17-67 us a launch on an H100.
constexpr int residual_restriction_threads_x = 32, residual_restriction_threads_y = 4;
constexpr long long residual_restriction_chunk = 16, residual_restriction_blocks = 1024;

template <class T>
__global__ void __launch_bounds__(residual_restriction_threads_x* residual_restriction_threads_y)
    residual_restriction_kernel(mesh::FieldView<const T, 3> u, mesh::FieldView<const T, 3> f, mesh::FieldView<T, 3> coarse,
                                core::BoxPoints<3> b, long long chunk, PoissonCoefficients<T> c) {
  const long long x = static_cast<long long>(blockIdx.x) * residual_restriction_threads_x + threadIdx.x;
  const long long y = static_cast<long long>(blockIdx.y) * residual_restriction_threads_y + threadIdx.y;
  if (x >= b.n[0] || y >= b.n[1]) return;
  const long long I = b.lo[0] + x, J = b.lo[1] + y, K_first = b.lo[2] + static_cast<long long>(blockIdx.z) * chunk;
  const long long planes_left = b.lo[2] + b.n[2] - K_first;
  const int coarse_planes = static_cast<int>(planes_left < chunk ? planes_left : chunk);
  const long long sy = u.stride[1], sz = u.stride[2], fy = f.stride[1], fz = f.stride[2];
  const T* up = &u(2 * I, 2 * J, 2 * K_first - 1);  // the thread's centre fine point, plane by plane
  const T* fp = &f(2 * I, 2 * J, 2 * K_first - 1);
  T* out = &coarse(I, J, K_first);
  T below[3][3], here[3][3], above[3][3];  // u at the nine points, [y][x] offsets + 1, planes z - 1, z, z + 1
  const auto load_nine = [&](T (&to)[3][3], const T* p) {
#pragma unroll
    for (int bb = 0; bb < 3; ++bb)
#pragma unroll
      for (int a = 0; a < 3; ++a) to[bb][a] = p[(bb - 1) * sy + (a - 1)];
  };
  load_nine(below, up - sz);
  load_nine(here, up);
  T low = T(0), mid = T(0);  // the weighted planes 2K - 1 and 2K
  const int fine_planes = 2 * coarse_planes + 1;
  for (int s = 0; s < fine_planes; ++s) {
    load_nine(above, up + sz);
    T line[3];
#pragma unroll
    for (int bb = 0; bb < 3; ++bb) {
      T r[3];
#pragma unroll
      for (int a = 0; a < 3; ++a) {
        const T* p = up + (bb - 1) * sy + (a - 1);
        const T w = a > 0 ? here[bb][a - 1] : p[-1], e = a < 2 ? here[bb][a + 1] : p[1];
        const T s_ = bb > 0 ? here[bb - 1][a] : p[-sy], n = bb < 2 ? here[bb + 1][a] : p[sy];
        r[a] = fp[(bb - 1) * fy + (a - 1)] - stencil::laplacian_point(here[bb][a], w, e, s_, n, below[bb][a], above[bb][a], c);
      }
      line[bb] = full_weighting_3<T>(r[0], r[1], r[2]);
    }
    const T plane = full_weighting_3<T>(line[0], line[1], line[2]);
    if (s == 0) {
      low = plane;
    } else if (s & 1) {
      mid = plane;
    } else {
      *out = full_weighting_3<T>(low, mid, plane);
      out += coarse.stride[2];
      low = plane;
    }
#pragma unroll
    for (int bb = 0; bb < 3; ++bb)
#pragma unroll
      for (int a = 0; a < 3; ++a) {
        below[bb][a] = here[bb][a];
        here[bb][a] = above[bb][a];
      }
    up += sz;
    fp += fz;
  }
}

}  // namespace

template <class T>
void restrict_residual_full_weighting_cuda(mesh::FieldView<const T, 3> u, mesh::FieldView<const T, 3> f, mesh::FieldView<T, 3> coarse,
                                           const mesh::Box<3>& coarse_box, const PoissonCoefficients<T>& k, StreamHandle stream) {
  if (coarse_box.empty()) return;
  const auto b = core::BoxPoints<3>::of(coarse_box);
  constexpr long long tx = residual_restriction_threads_x, ty = residual_restriction_threads_y;
  const long long blocks_xy = ((b.n[0] + tx - 1) / tx) * ((b.n[1] + ty - 1) / ty);
  const long long tz = walk_length(residual_restriction_chunk, 1, blocks_xy, b.n[2], residual_restriction_blocks);
  GRIDFLOW_REQUIRE((b.n[0] + tx - 1) / tx < (1ll << 31) && (b.n[1] + ty - 1) / ty < 65535 && (b.n[2] + tz - 1) / tz < 65535,
                   "multigrid::restrict_residual_full_weighting: box too large for the CUDA launch");
  const dim3 grid(static_cast<unsigned>((b.n[0] + tx - 1) / tx), static_cast<unsigned>((b.n[1] + ty - 1) / ty),
                  static_cast<unsigned>((b.n[2] + tz - 1) / tz));
  residual_restriction_kernel<T><<<grid, dim3(tx, ty), 0, stream>>>(u, f, coarse, b, tz, k);
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
}

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
  template void restrict_residual_full_weighting_cuda<T>(mesh::FieldView<const T, 3>, mesh::FieldView<const T, 3>,      \
                                                         mesh::FieldView<T, 3>, const mesh::Box<3>&,                      \
                                                         const PoissonCoefficients<T>&, StreamHandle);                    \
  template void prolong_and_add_cuda<T>(mesh::FieldView<const T, 3>, mesh::FieldView<T, 3>, const mesh::Box<3>&,       \
                                        const Coarsening&, StreamHandle);
GRIDFLOW_INSTANTIATE_TRANSFER_CUDA(float)
GRIDFLOW_INSTANTIATE_TRANSFER_CUDA(double)
#undef GRIDFLOW_INSTANTIATE_TRANSFER_CUDA

}  // namespace gridflow::kernels::multigrid
