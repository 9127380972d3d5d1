#include <cuda_runtime.h>

#include <algorithm>
#include <sstream>

#include "kernels/core/for_each_cuda.cuh"
#include "kernels/filter/correlate_cuda.hpp"
#include "kernels/filter/filter_weights.hpp"
#include "mesh/check.hpp"

namespace gridflow::kernels::filter {

namespace {

template <int Dim, class... I>
__device__ Point<Dim> point_of(I... i) {
  return Point<Dim>{{static_cast<long long>(i)...}};
}

// ---- direct variant: one thread per output point, the host reference's point functions, the
// weights in global memory (read through L1, the same address for every thread of a warp) ----

template <class T, int Dim>
struct AxisPass {
  mesh::FieldView<const T, Dim> in;
  mesh::FieldView<T, Dim> out;
  const T* w;
  int length;
  int axis;
  Extension<Dim> e;
  T cval;
  template <class... I>
  __device__ void operator()(I... i) const {
    out(i...) = axis_pass_point<T, Dim>(in, point_of<Dim>(i...), axis, w, length, e, cval);
  }
};

template <class T, int Dim>
struct FullPass {
  mesh::FieldView<const T, Dim> in;
  mesh::FieldView<T, Dim> out;
  const T* w;
  int shape[Dim];
  Extension<Dim> e;
  T cval;
  template <class... I>
  __device__ void operator()(I... i) const {
    out(i...) = full_point<T, Dim>(in, point_of<Dim>(i...), w, shape, e, cval);
  }
};

// ---- tiled variant ----

// The weights of the three axes travel in the kernel's parameters (__grid_constant__): they live
// in the constant bank and are read through the constant cache, one broadcast per warp, which is
// what the seed's __constant__ array bought. Unlike one __constant__ symbol per module, each
// launch carries its own copy, so filters with different weights on different streams cannot
// overwrite each other's.
template <class T>
struct AxisWeights {
  T w[3][max_axis_length];
  int length[3];
};

template <class T, int Dim>
struct TiledArgs {
  mesh::FieldView<const T, Dim> in;
  mesh::FieldView<T, Dim> out;
  long long ulo[3], un[3];  // the update box (2D: z is 0..0)
  long long glo[3], gn[3];  // the global array (2D: z is 0..0)
  int tile[3];              // outputs per block per axis
  BoundaryMode mode;
  T cval;
  AxisWeights<T> w;         // 2D: length[2] == 1
};

// How a block's threads cover rows of `width` values: whole warps along x, so each warp reads and
// writes consecutive addresses; rows wider than the block take the whole block per row.
struct RowLanes {
  int lanes, lane, group, groups;
  __device__ explicit RowLanes(int width) {
    lanes = width >= static_cast<int>(blockDim.x) ? static_cast<int>(blockDim.x) : 32;
    lane = static_cast<int>(threadIdx.x) % lanes;
    group = static_cast<int>(threadIdx.x) / lanes;
    groups = static_cast<int>(blockDim.x) / lanes;
  }
};

// C consecutive outputs along a column of shared memory (values `stride` apart, output c at
// src[c * stride]): s[c] = sum_j w[j] src[(c + j) * stride], as axis_pass_point sums them. The C
// values under the weights slide through registers, so each value read from shared memory serves
// C outputs. Only the first `readable` values of the column exist; outputs that would need more
// are garbage and not stored by the caller.
template <class T, int C>
__device__ inline void column_outputs(T (&s)[C], const T* w, int length, const T* src, int stride, int readable) {
  T window[C];
#pragma unroll
  for (int c = 0; c < C; ++c) {
    window[c] = c < readable ? src[c * stride] : T(0);
    s[c] = w[0] * window[c];
  }
  for (int j = 1; j < length; ++j) {
#pragma unroll
    for (int c = 0; c + 1 < C; ++c) window[c] = window[c + 1];
    window[C - 1] = C - 1 + j < readable ? src[(C - 1 + j) * stride] : T(0);
#pragma unroll
    for (int c = 0; c < C; ++c) s[c] = multiply_add(w[j], window[c], s[c]);
  }
}

// One block: its tile plus the reach is loaded once into shared memory (s0), mapped by the mode
// at the global edges; the x pass writes s1 (tile_x x rows x planes), the y pass writes back into
// s0 (3D) or the output (2D), the z pass the output. Each output is the same chain of a product
// and fused multiply-adds as in axis_pass_point, so the results equal the host reference's bit for
// bit. Under `constant`, a row or plane outside the global array holds cval after the passes
// across it (the reference never filters outside the array: its later passes read cval there).
template <class T, int Dim, int C>
__global__ void __launch_bounds__(1024) tiled_kernel(const __grid_constant__ TiledArgs<T, Dim> a) {
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  T* const s0 = reinterpret_cast<T*>(shared_bytes);
  const int L0 = a.w.length[0], L1 = a.w.length[1], L2 = a.w.length[2];
  const int tx = a.tile[0], ty = a.tile[1], tz = a.tile[2];
  const int e0 = tx + L0 - 1, e1 = ty + L1 - 1, e2 = tz + L2 - 1;
  T* const s1 = s0 + e0 * e1 * e2;
  const long long o0 = a.ulo[0] + static_cast<long long>(blockIdx.x) * tx;
  const long long o1 = a.ulo[1] + static_cast<long long>(blockIdx.y) * ty;
  const long long o2 = a.ulo[2] + static_cast<long long>(blockIdx.z) * tz;
  const long long b0 = o0 - L0 / 2, b1 = o1 - L1 / 2, b2 = o2 - L2 / 2;  // global index of tile element 0
  const bool constant = a.mode == BoundaryMode::constant;
  auto outside = [&](long long g, int d) { return g < a.glo[d] || g >= a.glo[d] + a.gn[d]; };
  // Inputs some output of the update box needs; the rest of the tile is left 0, never used.
  auto needed = [&](long long g, int d) {
    const int L = a.w.length[d];
    return g >= a.ulo[d] - L / 2 && g <= a.ulo[d] + a.un[d] - 1 + (L - 1 - L / 2);
  };

  {  // load the tile with its halo
    const RowLanes r(e0);
    for (int row = r.group; row < e1 * e2; row += r.groups) {
      const int y = row % e1, z = row / e1;
      const long long gy = b1 + y, gz = b2 + z;
      const bool row_needed = needed(gy, 1) && needed(gz, 2);
      const long long my = boundary_index(gy - a.glo[1], a.gn[1], a.mode);
      const long long mz = Dim == 3 ? boundary_index(gz - a.glo[2], a.gn[2], a.mode) : 0;
      const bool row_cval = my < 0 || mz < 0;
      long long row_offset = (a.glo[1] + my - a.in.lo[1]) * a.in.stride[1] - a.in.lo[0];
      if constexpr (Dim == 3) row_offset += (a.glo[2] + mz - a.in.lo[2]) * a.in.stride[2];
      T* dst = s0 + row * e0;
      for (int x = r.lane; x < e0; x += r.lanes) {
        const long long gx = b0 + x;
        T v = T(0);
        if (row_needed && needed(gx, 0)) {
          const long long mx = boundary_index(gx - a.glo[0], a.gn[0], a.mode);
          v = row_cval || mx < 0 ? a.cval : __ldg(a.in.data + row_offset + a.glo[0] + mx);
        }
        dst[x] = v;
      }
    }
  }
  __syncthreads();

  {  // x pass: every row and plane of the tile with its halo
    const RowLanes r(tx);
    for (int row = r.group; row < e1 * e2; row += r.groups) {
      const int y = row % e1, z = row / e1;
      const bool to_cval = constant && (outside(b1 + y, 1) || outside(b2 + z, 2));
      const T* src = s0 + row * e0;
      T* dst = s1 + row * tx;
      for (int x = r.lane; x < tx; x += r.lanes) {
        T s = a.w.w[0][0] * src[x];
        for (int j = 1; j < L0; ++j) s = multiply_add(a.w.w[0][j], src[x + j], s);
        dst[x] = to_cval ? a.cval : s;
      }
    }
  }
  __syncthreads();

  {  // y pass: the tile's rows, every plane with its halo; C consecutive rows per thread
    const RowLanes r(tx);
    const int groups_y = (ty + C - 1) / C;
    for (int row = r.group; row < groups_y * e2; row += r.groups) {
      const int y0 = (row % groups_y) * C, z = row / groups_y;
      const bool to_cval = Dim == 3 && constant && outside(b2 + z, 2);
      const T* src = s1 + z * e1 * tx;
      for (int x = r.lane; x < tx; x += r.lanes) {
        T s[C];
        column_outputs<T, C>(s, a.w.w[1], L1, src + y0 * tx + x, tx, e1 - y0);
#pragma unroll
        for (int c = 0; c < C; ++c) {
          const int y = y0 + c;
          if (y >= ty) break;
          if constexpr (Dim == 2) {
            if (o0 + x < a.ulo[0] + a.un[0] && o1 + y < a.ulo[1] + a.un[1]) a.out(o0 + x, o1 + y) = s[c];
          } else {
            s0[(z * ty + y) * tx + x] = to_cval ? a.cval : s[c];
          }
        }
      }
    }
  }
  if constexpr (Dim == 3) {
    __syncthreads();
    // z pass: C consecutive planes per thread
    const RowLanes r(tx);
    const int groups_z = (tz + C - 1) / C, plane = tx * ty;
    for (int row = r.group; row < ty * groups_z; row += r.groups) {
      const int y = row % ty, z0 = (row / ty) * C;
      const T* src = s0 + y * tx;
      for (int x = r.lane; x < tx; x += r.lanes) {
        T s[C];
        column_outputs<T, C>(s, a.w.w[2], L2, src + z0 * plane + x, plane, e2 - z0);
#pragma unroll
        for (int c = 0; c < C; ++c) {
          const int z = z0 + c;
          if (z >= tz) break;
          if (o0 + x < a.ulo[0] + a.un[0] && o1 + y < a.ulo[1] + a.un[1] && o2 + z < a.ulo[2] + a.un[2])
            a.out(o0 + x, o1 + y, o2 + z) = s[c];
        }
      }
    }
  }
}

template <class T, int Dim, int C>
void launch_tiled(const TiledArgs<T, Dim>& a, dim3 grid, int threads, std::size_t bytes, StreamHandle stream) {
  constexpr std::size_t default_shared = 48 * 1024;
  if (bytes > default_shared)
    GRIDFLOW_CUDA_CHECK(cudaFuncSetAttribute(tiled_kernel<T, Dim, C>, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
  tiled_kernel<T, Dim, C><<<grid, threads, bytes, stream>>>(a);
}

}  // namespace

std::size_t device_shared_bytes_per_block() {
  int device = 0, bytes = 0;
  GRIDFLOW_CUDA_CHECK(cudaGetDevice(&device));
  GRIDFLOW_CUDA_CHECK(cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  return static_cast<std::size_t>(bytes);
}

template <class T, int Dim>
void launch_axis_pass_cuda(mesh::FieldView<const T, Dim> in, mesh::FieldView<T, Dim> out, const mesh::Box<Dim>& box, int axis,
                           const T* weights, int length, const Extension<Dim>& e, T cval, StreamHandle stream) {
  core::for_each_cuda(box, AxisPass<T, Dim>{in, out, weights, length, axis, e, cval}, stream);
}

template <class T, int Dim>
void launch_full_cuda(mesh::FieldView<const T, Dim> in, mesh::FieldView<T, Dim> out, const mesh::Box<Dim>& box, const T* weights,
                      const std::array<int, Dim>& shape, const Extension<Dim>& e, T cval, StreamHandle stream) {
  FullPass<T, Dim> pass{in, out, weights, {}, e, cval};
  for (int d = 0; d < Dim; ++d) pass.shape[d] = shape[d];
  core::for_each_cuda(box, pass, stream);
}

template <class T, int Dim>
void launch_tiled_cuda(const FilterTunables& tunables, mesh::FieldView<const T, Dim> in, mesh::FieldView<T, Dim> out,
                       const mesh::Box<Dim>& update, const std::array<std::vector<double>, Dim>& axis, const Extension<Dim>& e,
                       T cval, StreamHandle stream) {
  GRIDFLOW_REQUIRE(tunables.valid(), "invalid filter tunables");
  if (update.empty()) return;
  TiledArgs<T, Dim> a{};
  a.in = in;
  a.out = out;
  a.mode = e.mode;
  a.cval = cval;
  std::array<int, 3> length{1, 1, 1};
  for (int d = 0; d < 3; ++d) {
    const std::vector<double> one{1.0};
    const std::vector<double>& w = d < Dim ? axis[d] : one;
    GRIDFLOW_REQUIRE(!w.empty() && static_cast<int>(w.size()) <= max_axis_length, "filter weights longer than max_axis_length");
    length[d] = a.w.length[d] = static_cast<int>(w.size());
    for (std::size_t j = 0; j < w.size(); ++j) a.w.w[d][j] = static_cast<T>(w[j]);
  }
  const std::array<int, 3> tile = tile_extents<Dim>(tunables, update);
  dim3 grid(1, 1, 1);
  unsigned* const blocks[3] = {&grid.x, &grid.y, &grid.z};
  for (int d = 0; d < 3; ++d) {
    a.ulo[d] = d < Dim ? update.lo[d] : 0;
    a.un[d] = d < Dim ? update.extent(d) : 1;
    a.glo[d] = d < Dim ? e.lo[d] : 0;
    a.gn[d] = d < Dim ? e.n[d] : 1;
    a.tile[d] = tile[d];
    const long long n = (a.un[d] + tile[d] - 1) / tile[d];
    GRIDFLOW_REQUIRE(n <= (d == 0 ? 0x7fffffffll : 65535ll), "filter tiled: too many tiles along y or z; use larger tiles");
    *blocks[d] = static_cast<unsigned>(n);
  }
  const std::size_t bytes = tiled_shared_bytes(tile, length, sizeof(T));
  if (bytes > 48 * 1024 && bytes > device_shared_bytes_per_block()) {
    std::ostringstream os;
    os << "filter tiled: " << tunables << " with weights of " << length[0] << 'x' << length[1] << 'x' << length[2] << " needs " << bytes
       << " bytes of shared memory per block, the device offers " << device_shared_bytes_per_block() << ": use smaller tiles";
    throw Error(os.str());
  }
  switch (tunables.cells) {
    case 1: launch_tiled<T, Dim, 1>(a, grid, tunables.threads, bytes, stream); break;
    case 2: launch_tiled<T, Dim, 2>(a, grid, tunables.threads, bytes, stream); break;
    case 4: launch_tiled<T, Dim, 4>(a, grid, tunables.threads, bytes, stream); break;
  }
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
}

#define GRIDFLOW_INSTANTIATE_FILTER_CUDA(T, D)                                                                                        \
  template void launch_axis_pass_cuda<T, D>(mesh::FieldView<const T, D>, mesh::FieldView<T, D>, const mesh::Box<D>&, int, const T*,  \
                                            int, const Extension<D>&, T, StreamHandle);                                              \
  template void launch_full_cuda<T, D>(mesh::FieldView<const T, D>, mesh::FieldView<T, D>, const mesh::Box<D>&, const T*,             \
                                       const std::array<int, D>&, const Extension<D>&, T, StreamHandle);                             \
  template void launch_tiled_cuda<T, D>(const FilterTunables&, mesh::FieldView<const T, D>, mesh::FieldView<T, D>, const mesh::Box<D>&, \
                                        const std::array<std::vector<double>, D>&, const Extension<D>&, T, StreamHandle);
GRIDFLOW_INSTANTIATE_FILTER_CUDA(float, 2)
GRIDFLOW_INSTANTIATE_FILTER_CUDA(double, 2)
GRIDFLOW_INSTANTIATE_FILTER_CUDA(float, 3)
GRIDFLOW_INSTANTIATE_FILTER_CUDA(double, 3)
#undef GRIDFLOW_INSTANTIATE_FILTER_CUDA

}  // namespace gridflow::kernels::filter
