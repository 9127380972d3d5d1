#include <cuda_runtime.h>

#include <algorithm>
#include <sstream>

#include "kernels/core/for_each_cuda.cuh"
#include "kernels/filter/correlate_cuda.hpp"
#include "kernels/filter/filter_weights.hpp"
#include "mesh/check.hpp"

namespace gridflow::kernels::filter {

namespace {

// Weights travel as kernel parameters. Parameters live in the constant bank and are read through
// the constant cache, broadcast when a warp reads the same weight: what the seed's __constant__
// array bought. Unlike one __constant__ symbol per module, each launch carries its own copy, so
// filters with different weights on different streams cannot overwrite each other's.
template <class T>
struct AxisWeights {
  T w[3][max_axis_length];
  int length[3];
};

template <class T>
AxisWeights<T> axis_weights(const std::vector<double>* axis, int dims) {
  AxisWeights<T> a{};
  for (int d = 0; d < 3; ++d) {
    const std::vector<double> one{1.0};
    const std::vector<double>& w = d < dims ? axis[d] : one;
    GRIDFLOW_REQUIRE(!w.empty() && static_cast<int>(w.size()) <= max_axis_length, "filter weights longer than max_axis_length");
    a.length[d] = static_cast<int>(w.size());
    for (std::size_t j = 0; j < w.size(); ++j) a.w[d][j] = static_cast<T>(w[j]);
  }
  return a;
}

template <int Dim, class... I>
__device__ Point<Dim> point_of(I... i) {
  return Point<Dim>{{static_cast<long long>(i)...}};
}

// ---- direct variant: one thread per output point, the host reference's point functions ----

template <class T, int Dim>
struct AxisPass {
  mesh::FieldView<const T, Dim> in;
  mesh::FieldView<T, Dim> out;
  AxisWeights<T> w;  // slot 0 holds the pass's weights
  int axis;
  Extension<Dim> e;
  T cval;
  template <class... I>
  __device__ void operator()(I... i) const {
    out(i...) = axis_pass_point<T, Dim>(in, point_of<Dim>(i...), axis, w.w[0], w.length[0], e, cval);
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

template <class T>
__device__ inline T load(const T* p) {
  return __ldg(p);
}

// One block: its tile plus the reach is loaded once into shared memory (s0), mapped by the mode
// at the global edges; the x pass writes s1 (tile_x x rows x planes), the y pass writes back
// into s0 (3D) or the output (2D), the z pass the output. Each pass multiplies and adds exactly as
// axis_pass_point does, so the results equal the host reference's bit for bit. Under `constant`,
// a row or plane outside the global array holds cval after the passes across it (the reference
// never filters outside the array: its later passes read cval there).
template <class T, int Dim>
__global__ void tiled_kernel(const TiledArgs<T, Dim> a) {
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  T* const s0 = reinterpret_cast<T*>(shared_bytes);
  const int L0 = a.w.length[0], L1 = a.w.length[1], L2 = a.w.length[2];
  const int tx = a.tile[0], ty = a.tile[1], tz = a.tile[2];
  const int e0 = tx + L0 - 1, e1 = ty + L1 - 1, e2 = tz + L2 - 1;
  T* const s1 = s0 + static_cast<long long>(e0) * e1 * e2;
  const long long o[3] = {a.ulo[0] + static_cast<long long>(blockIdx.x) * tx, a.ulo[1] + static_cast<long long>(blockIdx.y) * ty,
                          a.ulo[2] + static_cast<long long>(blockIdx.z) * tz};
  const int lo_reach[3] = {L0 / 2, L1 / 2, L2 / 2};
  const int nthreads = blockDim.x;
  const bool constant = a.mode == BoundaryMode::constant;
  auto outside = [&](long long g, int d) { return g < a.glo[d] || g >= a.glo[d] + a.gn[d]; };

  const int n_load = e0 * e1 * e2;
  for (int q = threadIdx.x; q < n_load; q += nthreads) {
    const int r = q / e0;
    const int t[3] = {q - r * e0, r % e1, r / e1};
    long long p[3];
    bool needed = true;
    for (int d = 0; d < 3; ++d) {
      p[d] = o[d] - lo_reach[d] + t[d];
      const int hi_reach = a.w.length[d] - 1 - lo_reach[d];
      needed = needed && p[d] >= a.ulo[d] - lo_reach[d] && p[d] <= a.ulo[d] + a.un[d] - 1 + hi_reach;
    }
    T v = T(0);  // points no output of the update box needs stay 0
    if (needed) {
      bool to_cval = false;
      for (int d = 0; d < Dim; ++d) {
        const long long m = boundary_index(p[d] - a.glo[d], a.gn[d], a.mode);
        to_cval = to_cval || m < 0;
        p[d] = a.glo[d] + m;
      }
      if (to_cval) v = a.cval;
      else if constexpr (Dim == 2) v = load(&a.in(p[0], p[1]));
      else v = load(&a.in(p[0], p[1], p[2]));
    }
    s0[q] = v;
  }
  __syncthreads();

  const int n_x = tx * e1 * e2;  // x pass: every row and plane of the tile with its halo
  for (int q = threadIdx.x; q < n_x; q += nthreads) {
    const int r = q / tx;
    const int x = q - r * tx, y = r % e1, z = r / e1;
    const T* row = s0 + (static_cast<long long>(z) * e1 + y) * e0 + x;
    T s = a.w.w[0][0] * row[0];
    for (int j = 1; j < L0; ++j) s += a.w.w[0][j] * row[j];
    if (constant && (outside(o[1] - lo_reach[1] + y, 1) || outside(o[2] - lo_reach[2] + z, 2))) s = a.cval;
    s1[q] = s;
  }
  __syncthreads();

  const int n_y = tx * ty * e2;  // y pass: the tile's rows, every plane with its halo
  for (int q = threadIdx.x; q < n_y; q += nthreads) {
    const int r = q / tx;
    const int x = q - r * tx, y = r % ty, z = r / ty;
    const T* col = s1 + (static_cast<long long>(z) * e1 + y) * tx + x;
    T s = a.w.w[1][0] * col[0];
    for (int j = 1; j < L1; ++j) s += a.w.w[1][j] * col[static_cast<long long>(j) * tx];
    if constexpr (Dim == 2) {
      if (o[0] + x < a.ulo[0] + a.un[0] && o[1] + y < a.ulo[1] + a.un[1]) a.out(o[0] + x, o[1] + y) = s;
    } else {
      if (constant && outside(o[2] - lo_reach[2] + z, 2)) s = a.cval;
      s0[q] = s;
    }
  }
  if constexpr (Dim == 3) {
    __syncthreads();
    const int plane = tx * ty, n_z = plane * tz;
    for (int q = threadIdx.x; q < n_z; q += nthreads) {
      const int r = q / tx;
      const int x = q - r * tx, y = r % ty, z = r / ty;
      const T* col = s0 + q;
      T s = a.w.w[2][0] * col[0];
      for (int j = 1; j < L2; ++j) s += a.w.w[2][j] * col[static_cast<long long>(j) * plane];
      if (o[0] + x < a.ulo[0] + a.un[0] && o[1] + y < a.ulo[1] + a.un[1] && o[2] + z < a.ulo[2] + a.un[2])
        a.out(o[0] + x, o[1] + y, o[2] + z) = s;
    }
  }
}

int max_shared_bytes_per_block() {
  int device = 0, bytes = 0;
  GRIDFLOW_CUDA_CHECK(cudaGetDevice(&device));
  GRIDFLOW_CUDA_CHECK(cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  return bytes;
}

}  // namespace

template <class T, int Dim>
void launch_axis_pass_cuda(mesh::FieldView<const T, Dim> in, mesh::FieldView<T, Dim> out, const mesh::Box<Dim>& box, int axis,
                           const std::vector<double>& weights, const Extension<Dim>& e, T cval, StreamHandle stream) {
  AxisPass<T, Dim> pass{in, out, axis_weights<T>(&weights, 1), axis, e, cval};
  core::for_each_cuda(box, pass, stream);
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
  a.w = axis_weights<T>(axis.data(), Dim);
  const int wanted[3] = {tunables.tile_x, tunables.tile_y, Dim == 3 ? tunables.tile_z : 1};
  dim3 grid(1, 1, 1);
  unsigned* const blocks[3] = {&grid.x, &grid.y, &grid.z};
  for (int d = 0; d < 3; ++d) {
    a.ulo[d] = d < Dim ? update.lo[d] : 0;
    a.un[d] = d < Dim ? update.extent(d) : 1;
    a.glo[d] = d < Dim ? e.lo[d] : 0;
    a.gn[d] = d < Dim ? e.n[d] : 1;
    a.tile[d] = static_cast<int>(std::min<long long>(wanted[d], a.un[d]));
    const long long n = (a.un[d] + a.tile[d] - 1) / a.tile[d];
    GRIDFLOW_REQUIRE(n <= (d == 0 ? 0x7fffffffll : 65535ll), "filter tiled: too many tiles along an axis; use larger tiles");
    *blocks[d] = static_cast<unsigned>(n);
  }
  const long long e0 = a.tile[0] + a.w.length[0] - 1, e1 = a.tile[1] + a.w.length[1] - 1, e2 = a.tile[2] + a.w.length[2] - 1;
  const std::size_t bytes = static_cast<std::size_t>((e0 * e1 * e2 + a.tile[0] * e1 * e2) * static_cast<long long>(sizeof(T)));
  constexpr std::size_t default_shared = 48 * 1024;
  if (bytes > default_shared) {
    const int limit = max_shared_bytes_per_block();
    if (bytes > static_cast<std::size_t>(limit)) {
      std::ostringstream os;
      os << "filter tiled: " << tunables << " with weights of " << a.w.length[0] << 'x' << a.w.length[1] << 'x' << a.w.length[2]
         << " needs " << bytes << " bytes of shared memory per block, the device offers " << limit
         << ": use smaller tiles or fused = false";
      throw Error(os.str());
    }
    GRIDFLOW_CUDA_CHECK(cudaFuncSetAttribute(tiled_kernel<T, Dim>, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
  }
  tiled_kernel<T, Dim><<<grid, tunables.threads, bytes, stream>>>(a);
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
}

#define GRIDFLOW_INSTANTIATE_FILTER_CUDA(T, D)                                                                                        \
  template void launch_axis_pass_cuda<T, D>(mesh::FieldView<const T, D>, mesh::FieldView<T, D>, const mesh::Box<D>&, int,              \
                                            const std::vector<double>&, const Extension<D>&, T, StreamHandle);                        \
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
