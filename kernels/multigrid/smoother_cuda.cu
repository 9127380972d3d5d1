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


// One whole red-black sweep, out of place, marching z. A block owns a 32 x 8 column tile of the
// output and keeps four z-planes of the input around it (2 points of halo in x and y) in shared
// memory. At step k it loads plane k+1, relaxes the first colour of plane k on the tile and a
// 1-point ring (the ring's values are recomputed, not read from a neighbouring block, which may
// already have written them), then relaxes the second colour of plane k-1, whose first-colour
// neighbours in planes k-2..k are all new by then, and writes plane k-1. Each point takes the
// same jacobi_point of the same values as in the two in-place colour sweeps: equal bitwise.
// blockIdx.z takes a chunk of gs_chunk_z output planes, starting one plane early (its first
// colour, not written) so that enough blocks run at once.
constexpr int gs_tile_x = 32, gs_tile_y = 8, gs_halo = 2, gs_chunk_z = 32;
constexpr int gs_plane_x = gs_tile_x + 2 * gs_halo, gs_plane_y = gs_tile_y + 2 * gs_halo;
constexpr int gs_planes = 4;

/// Inclusive bounds as a plain struct for device code (mesh::Box's std::array is host-only).
struct Bounds {
  long long lo[3], hi[3];
  static Bounds of(const mesh::Box<3>& b) { return {{b.lo[0], b.lo[1], b.lo[2]}, {b.hi[0], b.hi[1], b.hi[2]}}; }
};

template <class T>
__global__ void __launch_bounds__(gs_tile_x * gs_tile_y)
    gauss_seidel_march_kernel(mesh::FieldView<const T, 3> in, mesh::FieldView<T, 3> out, mesh::FieldView<const T, 3> f,
                              Bounds box, Bounds cover, Bounds readable, int first, PoissonCoefficients<T> c) {
  __shared__ T plane[gs_planes][gs_plane_y][gs_plane_x];
  const long long x0 = cover.lo[0] + static_cast<long long>(blockIdx.x) * gs_tile_x;
  const long long y0 = cover.lo[1] + static_cast<long long>(blockIdx.y) * gs_tile_y;
  const int tid = threadIdx.y * gs_tile_x + threadIdx.x;
  constexpr int threads = gs_tile_x * gs_tile_y;
  const auto slot = [&](long long k) { return static_cast<int>((k - cover.lo[2] + 2 * gs_planes) % gs_planes); };
  const auto load = [&](long long k) {
    auto& p = plane[slot(k)];
    const bool z_ok = k >= readable.lo[2] && k <= readable.hi[2];
    for (int q = tid; q < gs_plane_x * gs_plane_y; q += threads) {
      const int sx = q % gs_plane_x, sy = q / gs_plane_x;
      const long long i = x0 + sx - gs_halo, j = y0 + sy - gs_halo;
      const bool ok = z_ok && i >= readable.lo[0] && i <= readable.hi[0] && j >= readable.lo[1] && j <= readable.hi[1];
      p[sy][sx] = ok ? in(i, j, k) : T(0);
    }
  };
  const auto relax = [&](long long k, int sx, int sy, long long i, long long j) {
    const auto& m = plane[slot(k)];
    return stencil::jacobi_point(m[sy][sx - 1], m[sy][sx + 1], m[sy - 1][sx], m[sy + 1][sx], plane[slot(k - 1)][sy][sx],
                                 plane[slot(k + 1)][sy][sx], f(i, j, k), c);
  };
  const auto in_box = [&](long long i, long long j, long long k) {
    return i >= box.lo[0] && i <= box.hi[0] && j >= box.lo[1] && j <= box.hi[1] && k >= box.lo[2] && k <= box.hi[2];
  };

  const long long z_first = cover.lo[2] + static_cast<long long>(blockIdx.z) * gs_chunk_z;  // output planes of this block
  const long long z_last = z_first + gs_chunk_z - 1 < cover.hi[2] ? z_first + gs_chunk_z - 1 : cover.hi[2];
  const long long k_start = z_first > cover.lo[2] ? z_first - 1 : z_first;
  load(k_start - 1);
  load(k_start);
  for (long long k = k_start; k <= z_last + 1; ++k) {
    __syncthreads();  // the previous step's reads of the slot plane k+1 takes are done
    if (k + 1 <= cover.hi[2] + 1) load(k + 1);
    __syncthreads();
    if (k <= cover.hi[2]) {
      // First colour of plane k on the tile and its 1-point ring; results into shared memory.
      constexpr int ring_x = gs_tile_x + 2, ring_y = gs_tile_y + 2;
      T updated[(ring_x * ring_y + threads - 1) / threads];
      int n = 0;
      for (int q = tid; q < ring_x * ring_y; q += threads, ++n) {
        const int sx = q % ring_x + 1, sy = q / ring_x + 1;
        const long long i = x0 + sx - gs_halo, j = y0 + sy - gs_halo;
        updated[n] = in_box(i, j, k) && colour_of(i, j, k) == first ? relax(k, sx, sy, i, j) : plane[slot(k)][sy][sx];
      }
      __syncthreads();  // every first-colour update read the old plane k
      n = 0;
      for (int q = tid; q < ring_x * ring_y; q += threads, ++n) plane[slot(k)][q / ring_x + 1][q % ring_x + 1] = updated[n];
    }
    __syncthreads();
    const long long kk = k - 1;
    if (kk < z_first) continue;
    const int sx = threadIdx.x + gs_halo, sy = threadIdx.y + gs_halo;
    const long long i = x0 + threadIdx.x, j = y0 + threadIdx.y;
    if (i > cover.hi[0] || j > cover.hi[1]) continue;
    out(i, j, kk) = in_box(i, j, kk) && colour_of(i, j, kk) != first ? relax(kk, sx, sy, i, j) : plane[slot(kk)][sy][sx];
  }
}

}  // namespace

template <class T>
void gauss_seidel_sweep_out_of_place_cuda(mesh::FieldView<const T, 3> in, mesh::FieldView<T, 3> out, mesh::FieldView<const T, 3> f,
                                          const mesh::Box<3>& box, const mesh::Box<3>& cover, const mesh::Box<3>& readable,
                                          int first, const PoissonCoefficients<T>& c, StreamHandle stream) {
  if (cover.empty()) return;
  const dim3 block(gs_tile_x, gs_tile_y);
  GRIDFLOW_REQUIRE(cover.extent(1) / gs_tile_y < 65535 && cover.extent(2) / gs_chunk_z < 65535,
                   "multigrid::gauss_seidel_sweep_out_of_place: box too large for the CUDA launch");
  const dim3 grid(static_cast<unsigned>((cover.extent(0) + gs_tile_x - 1) / gs_tile_x),
                  static_cast<unsigned>((cover.extent(1) + gs_tile_y - 1) / gs_tile_y),
                  static_cast<unsigned>((cover.extent(2) + gs_chunk_z - 1) / gs_chunk_z));
  gauss_seidel_march_kernel<T><<<grid, block, 0, stream>>>(in, out, f, Bounds::of(box), Bounds::of(cover), Bounds::of(readable),
                                                           first, c);
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
}

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
                                                     int, const PoissonCoefficients<T>&, StreamHandle);                  \
  template void gauss_seidel_sweep_out_of_place_cuda<T>(mesh::FieldView<const T, 3>, mesh::FieldView<T, 3>,              \
                                                        mesh::FieldView<const T, 3>, const mesh::Box<3>&, const mesh::Box<3>&, \
                                                        const mesh::Box<3>&, int, const PoissonCoefficients<T>&, StreamHandle);
GRIDFLOW_INSTANTIATE_SMOOTHERS_CUDA(float)
GRIDFLOW_INSTANTIATE_SMOOTHERS_CUDA(double)
#undef GRIDFLOW_INSTANTIATE_SMOOTHERS_CUDA

}  // namespace gridflow::kernels::multigrid
