#include <cuda_runtime.h>

#include <algorithm>
#include <sstream>

#include "kernels/core/for_each_cuda.cuh"
#include "kernels/filter/correlate_cuda.hpp"
#include "kernels/filter/filter_weights.hpp"
#include "kernels/filter/tiled_block.hpp"
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

// ---- tiled variant: the phases of tiled_block.hpp, a barrier between them ----
//
// TiledArgs travels as a __grid_constant__ parameter: the weights live in the constant bank and are
// read through the constant cache, one broadcast per warp, which is what the seed's __constant__
// array bought. Unlike one __constant__ symbol per module, each launch carries its own copy, so
// filters with different weights on different streams cannot overwrite each other's.
//
// K = 0: the tiled variant; K > 0: the unrolled one (FilterTunables::unrolled), its weight loops
// unrolled for axes of length K (1: no length of its own), its rows dealt over all warps and
// four loads in flight per thread. At most 512 threads: its unrolled loops would spill under the
// 64 registers that 1024 threads leave.
template <class T, int Dim, int C, int K>
__global__ void __launch_bounds__(K > 0 ? max_unrolled_threads : 1024) tiled_kernel(const __grid_constant__ TiledArgs<T, Dim> a) {
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  const long long block[3] = {blockIdx.x, blockIdx.y, blockIdx.z};
  const TileFrame<T, Dim> f(a, block);
  T* const s0 = reinterpret_cast<T*>(shared_bytes);
  T* const s1 = s0 + f.e[0] * f.e[1] * f.e[2];
  const int tid = static_cast<int>(threadIdx.x), threads = static_cast<int>(blockDim.x);
  load_tile<T, Dim, K>(a, f, s0, tid, threads);
  __syncthreads();
  x_pass<T, Dim, C, K>(a, f, s0, s1, tid, threads);
  if (x_pass_is_last(f)) return;
  __syncthreads();
  y_pass<T, Dim, C, K>(a, f, s1, s0, tid, threads);
  if constexpr (Dim == 3) {
    __syncthreads();
    z_pass<T, Dim, C, K>(a, f, s0, tid, threads);
  }
}

template <class T, int Dim, int C, int K>
void launch_tiled(const TiledArgs<T, Dim>& a, int threads, std::size_t bytes, StreamHandle stream) {
  constexpr std::size_t default_shared = 48 * 1024;
  if (bytes > default_shared)
    GRIDFLOW_CUDA_CHECK(cudaFuncSetAttribute(tiled_kernel<T, Dim, C, K>, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
  const dim3 grid(static_cast<unsigned>(a.blocks[0]), static_cast<unsigned>(a.blocks[1]), static_cast<unsigned>(a.blocks[2]));
  tiled_kernel<T, Dim, C, K><<<grid, threads, bytes, stream>>>(a);
}

template <class T, int Dim, int K>
void launch_tiled_cells(const TiledArgs<T, Dim>& a, int cells, int threads, std::size_t bytes, StreamHandle stream) {
  switch (cells) {
    case 1: launch_tiled<T, Dim, 1, K>(a, threads, bytes, stream); break;
    case 2: launch_tiled<T, Dim, 2, K>(a, threads, bytes, stream); break;
    case 4: launch_tiled<T, Dim, 4, K>(a, threads, bytes, stream); break;
  }
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
  const TiledArgs<T, Dim> a = tiled_args<T, Dim>(tunables, in, out, update, axis, e, cval);
  GRIDFLOW_REQUIRE(a.blocks[0] <= 0x7fffffffll && a.blocks[1] <= 65535 && a.blocks[2] <= 65535,
                   "filter tiled: too many tiles along y or z; use larger tiles");
  const std::array<int, 3> tile{a.tile[0], a.tile[1], a.tile[2]}, length{a.w.length[0], a.w.length[1], a.w.length[2]};
  const std::size_t bytes = tiled_shared_bytes<Dim>(tile, length, sizeof(T));
  if (bytes > 48 * 1024 && bytes > device_shared_bytes_per_block()) {
    std::ostringstream os;
    os << "filter tiled: " << tunables << " with weights of " << length[0] << 'x' << length[1] << 'x' << length[2] << " needs " << bytes
       << " bytes of shared memory per block, the device offers " << device_shared_bytes_per_block() << ": use smaller tiles";
    throw Error(os.str());
  }
  // When the x pass is the only one, rows per thread beyond the tile's rows would only repeat a
  // stand-in row (a 1D signal has one): take no more than there are.
  int cells = tunables.cells;
  while (Dim == 2 && length[1] == 1 && cells > 1 && cells > tile[1]) cells /= 2;
  if (!tunables.unrolled) {
    launch_tiled_cells<T, Dim, 0>(a, cells, tunables.threads, bytes, stream);
  } else {
    switch (unrolled_length(length)) {
      case 3: launch_tiled_cells<T, Dim, 3>(a, cells, tunables.threads, bytes, stream); break;
      case 5: launch_tiled_cells<T, Dim, 5>(a, cells, tunables.threads, bytes, stream); break;
      case 9: launch_tiled_cells<T, Dim, 9>(a, cells, tunables.threads, bytes, stream); break;
      case 33: launch_tiled_cells<T, Dim, 33>(a, cells, tunables.threads, bytes, stream); break;
      default: launch_tiled_cells<T, Dim, 1>(a, cells, tunables.threads, bytes, stream); break;
    }
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
