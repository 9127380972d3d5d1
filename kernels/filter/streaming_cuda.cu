// The streaming filter kernel (FilterVariant::streaming; the geometry is streaming_block.hpp).
//
// Per batch of `batch` input rows (planes) along the walk axis, one barrier after each phase:
//   copy   the next batch's rows with their x (and y) halo, global -> shared, as asynchronous
//          copies issued before this batch is filtered (two batches in flight), mapped by the mode;
//   x      each thread V consecutive outputs of a row from one window of 16-byte shared loads;
//   y      (3D) C consecutive outputs down a column, the window sliding in registers;
//   walk   C consecutive outputs along the walk axis from the ring of intermediate rows.
// Every output is the host reference's chain (a product, then one FMA per weight, intermediates
// rounded to T), so the results equal it bit for bit and do not depend on the tiling.
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <sstream>
#include <type_traits>

#include "kernels/filter/correlate_cuda.hpp"
#include "kernels/filter/streaming_block.hpp"
#include "mesh/check.hpp"

namespace gridflow::kernels::filter {

namespace {

__device__ inline void unpack(const float4& v, float* d) { d[0] = v.x, d[1] = v.y, d[2] = v.z, d[3] = v.w; }
__device__ inline void unpack(const double2& v, double* d) { d[0] = v.x, d[1] = v.y; }
__device__ inline void store_vector(float* d, const float (&s)[4]) { *reinterpret_cast<float4*>(d) = make_float4(s[0], s[1], s[2], s[3]); }
__device__ inline void store_vector(double* d, const double (&s)[2]) { *reinterpret_cast<double2*>(d) = make_double2(s[0], s[1]); }
template <class T>
using Vector16 = std::conditional_t<sizeof(T) == 4, float4, double2>;

/// V consecutive outputs of a pass along x of length K: the window of V + K - 1 values in 16-byte
/// loads from `src` (16-byte aligned), then axis_pass_point's product and FMAs.
template <class T, int K>
__device__ inline void x_outputs(T (&s)[streaming_vector<T>], const T* w, const T* src) {
  constexpr int V = streaming_vector<T>, N = (V + K - 1 + V - 1) / V;
  T window[N * V];
#pragma unroll
  for (int q = 0; q < N; ++q) unpack(reinterpret_cast<const Vector16<T>*>(src)[q], window + q * V);
#pragma unroll
  for (int v = 0; v < V; ++v) s[v] = w[0] * window[v];
#pragma unroll
  for (int j = 1; j < K; ++j)
#pragma unroll
    for (int v = 0; v < V; ++v) s[v] = multiply_add(w[j], window[v + j], s[v]);
}

/// One block's geometry; tile extents t clamped at the update box's end.
template <class T, int Dim>
struct StreamFrame {
  int L[3], t[3];
  long long o[3];  ///< global index of the block's first output per axis
  long long b[3];  ///< of its first input (o minus the low reach)
  int ex;          ///< input values per row: the whole tile's x extent plus the reach
  bool x_interior; ///< the row's inputs lie in the global array and are needed: no mode mapping
  __device__ StreamFrame(const StreamingArgs<T, Dim>& a) {
    const long long block[3] = {blockIdx.x, blockIdx.y, blockIdx.z};
    for (int d = 0; d < 3; ++d) {
      L[d] = a.w.length[d];
      o[d] = a.ulo[d] + block[d] * a.tile[d];
      const long long left = a.ulo[d] + a.un[d] - o[d];
      t[d] = static_cast<int>(left < a.tile[d] ? left : a.tile[d]);
      b[d] = o[d] - L[d] / 2;
    }
    ex = a.tile[0] + L[0] - 1;
    const long long last = b[0] + ex - 1;
    x_interior = !outside(a, b[0], 0) && !outside(a, last, 0) && needed(a, b[0], 0) && needed(a, last, 0);
  }
  __device__ bool needed(const StreamingArgs<T, Dim>& a, long long g, int d) const {
    return g >= a.ulo[d] - L[d] / 2 && g <= a.ulo[d] + a.un[d] - 1 + (L[d] - 1 - L[d] / 2);
  }
  __device__ static bool outside(const StreamingArgs<T, Dim>& a, long long g, int d) { return g < a.glo[d] || g >= a.glo[d] + a.gn[d]; }
};

/// Offset of (0, y, w) in the view (2D: y is ignored), so that row[gx] is the value at gx.
template <class T, int Dim>
__device__ inline long long row_offset(const mesh::FieldView<const T, Dim>& v, long long y, long long w) {
  if constexpr (Dim == 2) return v.offset(0, w);
  else return v.offset(0, y, w);
}

/// Issues the copies of batch `bt` (rows bt * batch ... of the walk, every cross row of the tile
/// with its halo) into `dst`; values no output needs are 0, `constant`'s outside values cval.
template <class T, int Dim>
__device__ void copy_batch(const StreamingArgs<T, Dim>& a, const StreamFrame<T, Dim>& f, const StreamingLayout& lay, T* dst0, int bt,
                           int tid, int threads) {
  const RowLanes r(f.ex, tid, threads);
  for (int row = r.group; row < a.batch * lay.ey; row += r.groups) {
    const int y = row % lay.ey, k = row / lay.ey;
    const long long gy = f.b[1] + y, gw = f.b[2] + static_cast<long long>(bt) * a.batch + k;
    T* const dst = dst0 + static_cast<long long>(row) * lay.pitch_in;
    const long long my = boundary_index(gy - a.glo[1], a.gn[1], a.mode), mw = boundary_index(gw - a.glo[2], a.gn[2], a.mode);
    if (!f.needed(a, gy, 1) || !f.needed(a, gw, 2) || my < 0 || mw < 0) {
      const T v = f.needed(a, gy, 1) && f.needed(a, gw, 2) ? a.cval : T(0);
      for (int x = r.lane; x < f.ex; x += r.lanes) dst[x] = v;
      continue;
    }
    const T* const src = a.in.data + row_offset(a.in, a.glo[1] + my, a.glo[2] + mw);
    if (f.x_interior) {
      for (int x = r.lane; x < f.ex; x += r.lanes) __pipeline_memcpy_async(dst + x, src + f.b[0] + x, sizeof(T));
      continue;
    }
    for (int x = r.lane; x < f.ex; x += r.lanes) {
      const long long gx = f.b[0] + x;
      const long long mx = f.needed(a, gx, 0) ? boundary_index(gx - a.glo[0], a.gn[0], a.mode) : -2;
      if (mx >= 0) __pipeline_memcpy_async(dst + x, src + a.glo[0] + mx, sizeof(T));
      else dst[x] = mx == -1 ? a.cval : T(0);
    }
  }
}

/// Where the x pass of batch row `row` goes: the mid rows (3D) or ring slots (2D, two copies),
/// and whether `constant` makes it cval (a row outside the array along a later axis).
template <class T, int Dim>
struct XDestination {
  T* first;
  T* second;  ///< the ring's second copy, or nullptr
  bool to_cval;
  __device__ XDestination(const StreamingArgs<T, Dim>& a, const StreamFrame<T, Dim>& f, const StreamingLayout& lay, T* mid, T* ring, int bt,
                          int row) {
    const bool constant = a.mode == BoundaryMode::constant;
    if constexpr (Dim == 3) {
      first = mid + static_cast<long long>(row) * lay.pitch_mid;
      second = nullptr;
      to_cval = constant && StreamFrame<T, Dim>::outside(a, f.b[1] + row % lay.ey, 1);
    } else {
      const int i = bt * a.batch + row, slot = i % lay.slots;
      first = ring + static_cast<long long>(slot) * lay.pitch_mid;
      second = first + static_cast<long long>(lay.slots) * lay.pitch_mid;
      to_cval = constant && StreamFrame<T, Dim>::outside(a, f.b[2] + i, 2);
    }
  }
};

/// The x pass of the batch in `cur`: unrolled, V outputs per thread from vector loads, when the x
/// length is K; else one output per thread, the weights looped at run time.
template <class T, int Dim, int K>
__device__ void x_pass(const StreamingArgs<T, Dim>& a, const StreamFrame<T, Dim>& f, const StreamingLayout& lay, const T* cur, T* mid, T* ring,
                       int bt, int tid, int threads) {
  constexpr int V = streaming_vector<T>;
  const int rows = a.batch * lay.ey;
  if constexpr (K > 0) {
    if (f.L[0] == K) {
      for_rows<true>(rows, (a.tile[0] + V - 1) / V, tid, threads, [&](int row, int q) {
        T s[V];
        x_outputs<T, K>(s, a.w.w[0], cur + static_cast<long long>(row) * lay.pitch_in + q * V);
        const XDestination<T, Dim> d(a, f, lay, mid, ring, bt, row);
        if (d.to_cval)
#pragma unroll
          for (int v = 0; v < V; ++v) s[v] = a.cval;
        store_vector(d.first + q * V, s);
        if (d.second) store_vector(d.second + q * V, s);
      });
      return;
    }
  }
  for_rows<true>(rows, a.tile[0], tid, threads, [&](int row, int x) {
    T s[1];
    column_outputs<T, 1>(s, a.w.w[0], f.L[0], cur + static_cast<long long>(row) * lay.pitch_in + x, 1, f.L[0]);
    const XDestination<T, Dim> d(a, f, lay, mid, ring, bt, row);
    const T v = d.to_cval ? a.cval : s[0];
    d.first[x] = v;
    if (d.second) d.second[x] = v;
  });
}

/// 3D: the y pass of the batch's x-passed planes into the ring, C rows per thread.
template <class T, int Dim, int K, int C>
__device__ void y_pass(const StreamingArgs<T, Dim>& a, const StreamFrame<T, Dim>& f, const StreamingLayout& lay, const T* mid, T* ring, int bt,
                       int tid, int threads) {
  const bool constant = a.mode == BoundaryMode::constant;
  const int groups = (a.tile[1] + C - 1) / C;
  with_length<K>(f.L[1], [&](auto length) {
    for_rows<true>(a.batch * groups, a.tile[0], tid, threads, [&](int row, int x) {
      const int k = row / groups, y0 = (row % groups) * C;
      T s[C];
      column_outputs<T, C>(s, a.w.w[1], length, mid + static_cast<long long>(k * lay.ey + y0) * lay.pitch_mid + x, lay.pitch_mid, lay.ey - y0);
      const int i = bt * a.batch + k, slot = i % lay.slots;
      const bool to_cval = constant && StreamFrame<T, Dim>::outside(a, f.b[2] + i, 2);
      T* const first = ring + (static_cast<long long>(slot) * a.tile[1] + y0) * lay.pitch_mid + x;
      T* const second = first + static_cast<long long>(lay.slots) * a.tile[1] * lay.pitch_mid;
#pragma unroll
      for (int c = 0; c < C; ++c) {
        if (y0 + c >= a.tile[1]) break;
        const T v = to_cval ? a.cval : s[c];
        first[c * lay.pitch_mid] = v;
        second[c * lay.pitch_mid] = v;
      }
    });
  });
}

/// The walk pass: outputs o = bt * batch - (L2 - 1) + g * C + c, those whose last input row the
/// batch brought, from the ring; outputs before the block's first (priming) are not stored.
template <class T, int Dim, int K, int C>
__device__ void walk_pass(const StreamingArgs<T, Dim>& a, const StreamFrame<T, Dim>& f, const StreamingLayout& lay, const T* ring, int bt,
                          int tid, int threads) {
  const int groups = a.batch / C, tile1 = a.tile[1];
  const long long slot_values = static_cast<long long>(tile1) * lay.pitch_mid;
  with_length<K>(f.L[2], [&](auto length) {
    for_rows<true>(groups * tile1, a.tile[0], tid, threads, [&](int row, int x) {
      const int g = row / tile1, y = row % tile1;
      const int o0 = bt * a.batch - (f.L[2] - 1) + g * C;
      if (o0 + C <= 0 || o0 >= f.t[2] || x >= f.t[0] || y >= f.t[1]) return;
      int slot = o0 % lay.slots;
      if (slot < 0) slot += lay.slots;
      T s[C];
      column_outputs<T, C>(s, a.w.w[2], length, ring + slot * slot_values + static_cast<long long>(y) * lay.pitch_mid + x, static_cast<int>(slot_values),
                           2 * lay.slots - slot);
#pragma unroll
      for (int c = 0; c < C; ++c) {
        const int o = o0 + c;
        if (o < 0 || o >= f.t[2]) continue;
        if constexpr (Dim == 2) a.out(f.o[0] + x, f.o[2] + o) = s[c];
        else a.out(f.o[0] + x, f.o[1] + y, f.o[2] + o) = s[c];
      }
    });
  });
}

template <class T, int Dim, int K, int C>
__global__ void __launch_bounds__(max_unrolled_threads) streaming_kernel(const __grid_constant__ StreamingArgs<T, Dim> a) {
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  const StreamFrame<T, Dim> f(a);
  const StreamingLayout lay(a.tile[0], a.tile[1], f.L[0], f.L[1], f.L[2], a.batch, streaming_vector<T>, Dim == 3);
  T* const input = reinterpret_cast<T*>(shared_bytes);
  T* const mid = input + lay.input;
  T* const ring = mid + lay.mid;
  const std::size_t batch_values = lay.input / 2;
  const int tid = static_cast<int>(threadIdx.x), threads = static_cast<int>(blockDim.x);
  const int batches = (f.t[2] + f.L[2] - 1 + a.batch - 1) / a.batch;
  copy_batch(a, f, lay, input, 0, tid, threads);
  __pipeline_commit();
  for (int bt = 0; bt < batches; ++bt) {
    // The other buffer was last read by the previous batch's x pass, before its next barrier.
    if (bt + 1 < batches) copy_batch(a, f, lay, input + ((bt + 1) & 1) * batch_values, bt + 1, tid, threads);
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    x_pass<T, Dim, K>(a, f, lay, input + (bt & 1) * batch_values, mid, ring, bt, tid, threads);
    __syncthreads();
    if constexpr (Dim == 3) {
      y_pass<T, Dim, K, C>(a, f, lay, mid, ring, bt, tid, threads);
      __syncthreads();
    }
    walk_pass<T, Dim, K, C>(a, f, lay, ring, bt, tid, threads);
  }
}

template <class T, int Dim, int K, int C>
void launch(const StreamingArgs<T, Dim>& a, int threads, std::size_t bytes, StreamHandle stream) {
  if (bytes > 48 * 1024)
    GRIDFLOW_CUDA_CHECK(cudaFuncSetAttribute(streaming_kernel<T, Dim, K, C>, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
  const dim3 grid(static_cast<unsigned>(a.blocks[0]), static_cast<unsigned>(a.blocks[1]), static_cast<unsigned>(a.blocks[2]));
  streaming_kernel<T, Dim, K, C><<<grid, threads, bytes, stream>>>(a);
}

template <class T, int Dim, int K>
void launch_cells(const StreamingArgs<T, Dim>& a, int cells, int threads, std::size_t bytes, StreamHandle stream) {
  switch (cells) {
    case 1: launch<T, Dim, K, 1>(a, threads, bytes, stream); break;
    case 2: launch<T, Dim, K, 2>(a, threads, bytes, stream); break;
    case 4: launch<T, Dim, K, 4>(a, threads, bytes, stream); break;
    default: launch<T, Dim, K, 8>(a, threads, bytes, stream); break;
  }
}

}  // namespace

template <class T, int Dim>
void launch_streaming_cuda(const FilterTunables& tunables, mesh::FieldView<const T, Dim> in, mesh::FieldView<T, Dim> out,
                           const mesh::Box<Dim>& update, const std::array<std::vector<double>, Dim>& axis, const Extension<Dim>& e, T cval,
                           StreamHandle stream) {
  GRIDFLOW_REQUIRE(tunables.valid() && tunables.variant == FilterVariant::streaming, "invalid streaming filter tunables");
  if (update.empty()) return;
  const StreamingArgs<T, Dim> a = streaming_args<T, Dim>(tunables, in, out, update, axis, e, cval);
  GRIDFLOW_REQUIRE(a.blocks[0] <= 0x7fffffffll && a.blocks[1] <= 65535 && a.blocks[2] <= 65535,
                   "filter streaming: too many tiles along y or z; use larger tiles");
  const std::size_t bytes = streaming_shared_bytes<T, Dim>(tunables, update, axis);
  if (bytes > 48 * 1024 && bytes > device_shared_bytes_per_block()) {
    std::ostringstream os;
    os << "filter streaming: " << tunables << " needs " << bytes << " bytes of shared memory per block, the device offers "
       << device_shared_bytes_per_block() << ": use smaller tiles or batches";
    throw Error(os.str());
  }
  const std::array<int, 3> length{a.w.length[0], a.w.length[1], a.w.length[2]};
  switch (unrolled_length(length)) {
    case 3: launch_cells<T, Dim, 3>(a, tunables.cells, tunables.threads, bytes, stream); break;
    case 5: launch_cells<T, Dim, 5>(a, tunables.cells, tunables.threads, bytes, stream); break;
    case 9: launch_cells<T, Dim, 9>(a, tunables.cells, tunables.threads, bytes, stream); break;
    case 33: launch_cells<T, Dim, 33>(a, tunables.cells, tunables.threads, bytes, stream); break;
    default: launch_cells<T, Dim, 0>(a, tunables.cells, tunables.threads, bytes, stream); break;
  }
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
}

#define GRIDFLOW_INSTANTIATE_STREAMING_CUDA(T, D)                                                                                      \
  template void launch_streaming_cuda<T, D>(const FilterTunables&, mesh::FieldView<const T, D>, mesh::FieldView<T, D>, const mesh::Box<D>&, \
                                            const std::array<std::vector<double>, D>&, const Extension<D>&, T, StreamHandle);
GRIDFLOW_INSTANTIATE_STREAMING_CUDA(float, 2)
GRIDFLOW_INSTANTIATE_STREAMING_CUDA(double, 2)
GRIDFLOW_INSTANTIATE_STREAMING_CUDA(float, 3)
GRIDFLOW_INSTANTIATE_STREAMING_CUDA(double, 3)
#undef GRIDFLOW_INSTANTIATE_STREAMING_CUDA

}  // namespace gridflow::kernels::filter
