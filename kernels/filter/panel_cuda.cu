// The panel filter kernel (FilterVariant::panel; the geometry is panel_block.hpp): 2D separable
// filters of one length K on both axes.
//
// A block walks its segment of y S rows per step, x step u filtering the input rows
// u S - R ... u S - R + S - 1 of the segment (R = K / 2) and walk step s = u - n, after it, the
// outputs s S ... s S + S - 1, whose inputs are the x steps s ... s + n. Two barriers a step:
//   copy  the rows of x step u + stages - 1, issued before x step u (one stage: those of x step
//         u + 1, after it, during the walk pass), global -> shared, asynchronously: one 16-byte
//         vector per thread and row, the x halo as whole vectors too, in blocks whose values all
//         lie inside the array (PanelBlock::interior: all but the edges' blocks); elsewhere value
//         by value mapped by the mode where a vector leaves the array;
//   x     each thread one run of V C consecutive outputs of one row: each staged value loaded
//         once, a product or an FMA into each output it reaches; into the mid ring;
//   walk  each thread V C / W consecutive outputs of its W columns (W = 1, 2 or V) from
//         V C / W + K - 1 rows of the ring.
// Every output is the chain of a product and fused multiply-adds of axis_pass_point, x pass then
// y pass with the intermediate rounded to T, so the result equals the host reference bit for bit.
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <sstream>

#include "kernels/filter/correlate_cuda.hpp"
#include "kernels/filter/panel_block.hpp"
#include "kernels/filter/vector_pass.cuh"
#include "mesh/check.hpp"

namespace gridflow::kernels::filter {
namespace {

/// Where a block sits: its first output column and row, its outputs along y, and whether every
/// value it reads lies inside the array and the view (copies as whole vectors, no mapping, no
/// column tests on the stores).
struct PanelBlock {
  long long o0, o2;
  int t2;
  bool interior;
};

template <class T, int K>
__device__ inline PanelBlock panel_block(const RingArgs<T, 2>& a) {
  constexpr int V = ring_vector<T>, R = K / 2, P = ring_halo_before(K, V);
  constexpr long long X = panel_threads_x * V;
  PanelBlock b;
  b.o0 = a.ulo[0] + static_cast<long long>(blockIdx.x) * X;
  b.o2 = a.ulo[2] + static_cast<long long>(blockIdx.y) * a.segment;
  const long long left = a.ulo[2] + a.un[2] - b.o2;
  b.t2 = static_cast<int>(left < a.segment ? left : a.segment);
  const long long uend0 = a.ulo[0] + a.un[0], xneed = uend0 - 1 + R, last = b.o0 + X + P - 1;
  b.interior = a.aligned && b.o0 - P >= a.glo[0] && b.o0 - P >= a.in.lo[0] && last <= xneed && last < a.glo[0] + a.gn[0] &&
               b.o0 + X <= uend0 && b.o2 - R >= a.glo[2] && b.o2 + b.t2 + R <= a.glo[2] + a.gn[2];
  return b;
}

/// One block's walk. G groups of C rows of 32 threads: S = G C rows a step, X = 32 V columns, all
/// compile-time, so that every shared-memory offset is an immediate and `tid % S` a mask. W: the
/// columns of each thread's walk pass (1, 2 or V).
template <class T, int K, int G, int W, bool Interior>
__device__ __forceinline__ void panel_walk(const RingArgs<T, 2>& a, const PanelBlock& b) {
  constexpr int V = ring_vector<T>, R = K / 2, P = ring_halo_before(K, V);
  constexpr int C = panel_cells, TX = panel_threads_x, S = G * C, X = TX * V, threads = TX * G;
  constexpr int D0 = P - R;                          // a staged row: column o0 - P + c at c
  constexpr int CX = V * C;                          // x outputs per thread and step
  constexpr int NX = (D0 + CX + K - 1 + V - 1) / V;  // vectors of a thread's x window
  constexpr int HV = 2 * P / V;                      // vectors of a staged row's x halo
  constexpr int n = panel_extra_slots(K, S), m = n + 1;
  constexpr int D = K - 1;  // rows of the cyclic buffer's start written twice, past its end
  constexpr int IP = panel_in_pitch<T>(X, K), MP = panel_pitch(X, V);
  constexpr int stage_values = S * IP, slot_values = S * MP;
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  const int tid = ty * TX + tx;
  T* const stage = reinterpret_cast<T*>(shared_bytes);
  T* const mid = stage + a.stages * stage_values;
  const long long o0 = b.o0, o2 = b.o2;
  const int t2 = b.t2, steps = (t2 + S - 1) / S, xsteps = steps + n;
  const long long uend0 = a.ulo[0] + a.un[0], xneed = uend0 - 1 + R;
  const bool constant = !Interior && a.mode == BoundaryMode::constant;
  const long long in_stride = a.in.stride[1];

  // x step u's rows into stage slot `slot`; rows no output needs (past t2 + R) are not copied.
  const auto copy_step = [&](int u, int slot) {
    T* const dst = stage + slot * stage_values;
    const int first = u * S - R;  // the step's first row, from o2
    if constexpr (Interior) {
      const T* const rows = a.in.data + a.in.offset(o0 - P, o2 + first);
      const bool whole = first + S <= t2 + R;  // every row of the step is needed (all but a segment's last)
      const T* from = rows + ty * in_stride + P + tx * V;
#pragma unroll
      for (int k = 0; k < C; ++k, from += G * in_stride) {
        const int r = ty + k * G;
        if (whole || first + r < t2 + R) __pipeline_memcpy_async(dst + r * IP + P + tx * V, from, 16);
      }
#pragma unroll
      for (int i = 0; i < (S * HV + threads - 1) / threads; ++i) {
        const int q = tid + i * threads;
        const int r = q / HV, j = q - r * HV, col = j < P / V ? j * V : X + j * V;
        if ((S * HV % threads == 0 || q < S * HV) && (whole || first + r < t2 + R))
          __pipeline_memcpy_async(dst + r * IP + col, rows + r * in_stride + col, 16);
      }
      return;
    }
    const long long gx0 = o0 + tx * V;
    const bool vector = a.aligned && gx0 >= a.glo[0] && gx0 + V - 1 < a.glo[0] + a.gn[0] && gx0 + V - 1 <= xneed;
    for (int r = ty; r < S; r += G) {
      if (first + r >= t2 + R) break;
      const long long my = index_in(o2 + first + r - a.glo[2], a.gn[2], a.mode);
      if (my < 0) continue;  // constant: the x pass writes cval
      const T* const row = a.in.data + a.in.offset(0, a.glo[2] + my);
      T* const d = dst + r * IP + P + tx * V;
      if (vector) __pipeline_memcpy_async(d, row + gx0, 16);
      else copy_mapped(d, row, gx0, V, gx0, xneed, a.glo[0], a.gn[0], a.mode, a.cval);
    }
    for (int q = tid; q < S * 2 * R; q += threads) {
      const int r = q / (2 * R), j = q - r * (2 * R);
      if (first + r >= t2 + R) continue;
      const int col = j < R ? D0 + j : P + X + (j - R);
      const long long gx = o0 - P + col;
      if (gx > xneed) continue;
      const long long my = index_in(o2 + first + r - a.glo[2], a.gn[2], a.mode);
      if (my < 0) continue;
      const long long mx = index_in(gx - a.glo[0], a.gn[0], a.mode);
      T* const d = dst + r * IP + col;
      if (mx >= 0) __pipeline_memcpy_async(d, a.in.data + a.in.offset(a.glo[0] + mx, a.glo[2] + my), sizeof(T));
      else *d = a.cval;
    }
  };

  // The x pass of x step u from stage slot `slot` into its rows of the ring (the ring's first
  // K - 1 rows also into their copy past its end).
  const int xr = tid % S, xq = tid / S;  // this thread's row of the step and run along the row
  const auto x_step = [&](int u, int slot) {
    const T* const src = stage + slot * stage_values + xr * IP + xq * CX;
    T acc[CX];
#pragma unroll
    for (int q = 0; q < NX; ++q) {
      T v[V];
      load_vector<T, V>(v, src + q * V);
#pragma unroll
      for (int e = 0; e < V; ++e)
#pragma unroll
        for (int c = 0; c < CX; ++c) {
          const int j = q * V + e - D0 - c;  // the tap of output c that this value is
          if (j == 0) acc[c] = a.w[0][0] * v[e];
          else if (j > 0 && j < K) acc[c] = multiply_add(a.w[0][j], v[e], acc[c]);
        }
    }
    if (constant) {
      const long long gy = o2 + u * S - R + xr;
      if (gy < a.glo[2] || gy >= a.glo[2] + a.gn[2])
#pragma unroll
        for (int c = 0; c < CX; ++c) acc[c] = a.cval;
    }
    const int row = u % m * S + xr;  // in the cyclic buffer of m S rows
    T* const d = mid + row * MP + xq * CX;
#pragma unroll
    for (int q = 0; q < CX / V; ++q) {
      T s[V];
#pragma unroll
      for (int e = 0; e < V; ++e) s[e] = acc[q * V + e];
      store_vector(d + q * V, s);
      if (row < D) store_vector(d + m * slot_values + q * V, s);
    }
  };

  // The walk pass of walk step s: each thread RW = V C / W consecutive outputs of its W columns
  // (a vector, two or one), from RW + K - 1 rows of the ring.
  constexpr int RW = V * C / W, XW = X / W;
  const int wc = (tid % XW) * W, wg = tid / XW;
  const long long out_stride = a.out.stride[1], left0 = uend0 - o0 - wc;
  T* const out = a.out.data + a.out.offset(o0 + wc, o2 + wg * RW);
  const auto walk_step = [&](int s) {
    const T* const src = mid + (s % m) * slot_values + wg * RW * MP + wc;
    T acc[RW][W];
#pragma unroll
    for (int k = 0; k < RW + K - 1; ++k) {
      T v[W];
      load_values<T, W>(v, src + k * MP);
#pragma unroll
      for (int c = 0; c < RW; ++c) {
        const int j = k - c;
        if (j == 0) {
#pragma unroll
          for (int e = 0; e < W; ++e) acc[c][e] = a.w[2][0] * v[e];
        } else if (j > 0 && j < K) {
#pragma unroll
          for (int e = 0; e < W; ++e) acc[c][e] = multiply_add(a.w[2][j], v[e], acc[c][e]);
        }
      }
    }
    if (!Interior && left0 <= 0) return;
    const int first = s * S + wg * RW;  // this thread's first output row, from o2
    const bool whole = Interior || (a.aligned && left0 >= W);
    T* d = out + static_cast<long long>(s) * S * out_stride;
    if (whole && first + RW <= t2) {  // all but a segment's last step: no tests
#pragma unroll
      for (int c = 0; c < RW; ++c, d += out_stride) store_values<T, W>(d, acc[c]);
      return;
    }
#pragma unroll
    for (int c = 0; c < RW; ++c, d += out_stride) {
      if (first + c >= t2) break;
      if (whole) {
        store_values<T, W>(d, acc[c]);
      } else {
#pragma unroll
        for (int e = 0; e < W; ++e)
          if (e < left0) d[e] = acc[c][e];
      }
    }
  };

  // Stages: x step u's rows are in slot u % stages, copied stages - 1 steps ahead (one stage:
  // during the walk pass of the step before).
  const int stages = a.stages;
  for (int i = 0; i < (stages > 1 ? stages - 1 : 1); ++i) {
    if (i < xsteps) copy_step(i, i);
    __pipeline_commit();
  }
  int slot = 0;
#pragma unroll 1
  for (int u = 0; u < xsteps; ++u) {
    if (stages > 1) {  // the slot it fills was last read by x step u - 1, before the barrier after it
      const int ahead = u + stages - 1, to = slot == 0 ? stages - 1 : slot - 1;
      if (ahead < xsteps) copy_step(ahead, to);
      __pipeline_commit();
      if (stages == 2) __pipeline_wait_prior(1);
      else __pipeline_wait_prior(2);
    } else {
      __pipeline_wait_prior(0);
    }
    __syncthreads();  // step u's rows are in; walk step u - 1 - n has read the ring rows x step u writes
    x_step(u, slot);
    __syncthreads();
    if (stages == 1 && u + 1 < xsteps) {
      copy_step(u + 1, 0);
      __pipeline_commit();
    }
    slot = slot + 1 == stages ? 0 : slot + 1;
    if (u >= n) walk_step(u - n);
  }
}

/// Blocks an SM must hold: 768 threads (at most 80 registers a thread; at 88, 256-thread blocks
/// fit two to an SM where their shared memory allows three).
template <class T, int K, int G, int W>
__global__ void __launch_bounds__(panel_threads_x * G, 768 / (panel_threads_x * G)) panel_kernel(const __grid_constant__ RingArgs<T, 2> a) {
  const PanelBlock b = panel_block<T, K>(a);
  if (b.interior) panel_walk<T, K, G, W, true>(a, b);
  else panel_walk<T, K, G, W, false>(a, b);
}

template <class T, int K, int G, int W>
void launch(const RingArgs<T, 2>& a, dim3 grid, std::size_t bytes, StreamHandle stream) {
  if (bytes > 48 * 1024)
    GRIDFLOW_CUDA_CHECK(cudaFuncSetAttribute(panel_kernel<T, K, G, W>, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
  panel_kernel<T, K, G, W><<<grid, dim3(panel_threads_x, G), bytes, stream>>>(a);
}

/// The kernel for G groups and walks of `width` columns (panel_walk_width); widths the groups
/// cannot tile (panel_walk_fits) are refused by FilterTunables::valid before this.
template <class T, int K, int G>
void launch_width(const RingArgs<T, 2>& a, int width, dim3 grid, std::size_t bytes, StreamHandle stream) {
  constexpr int V = ring_vector<T>;
  if constexpr (panel_walk_fits(G, 1, V))
    if (width == 1) return launch<T, K, G, 1>(a, grid, bytes, stream);
  if constexpr (V > 2 && panel_walk_fits(G, 2, V))
    if (width == 2) return launch<T, K, G, 2>(a, grid, bytes, stream);
  launch<T, K, G, V>(a, grid, bytes, stream);
}

template <class T, int K>
void launch_shape(const RingArgs<T, 2>& a, int groups, int width, dim3 grid, std::size_t bytes, StreamHandle stream) {
  if (groups == 2) return launch_width<T, K, 2>(a, width, grid, bytes, stream);
  if (groups == 4) return launch_width<T, K, 4>(a, width, grid, bytes, stream);
  launch_width<T, K, 8>(a, width, grid, bytes, stream);
}

}  // namespace

template <class T>
void launch_panel_cuda(const FilterTunables& tunables, mesh::FieldView<const T, 2> in, mesh::FieldView<T, 2> out, const mesh::Box<2>& update,
                       const std::array<std::vector<double>, 2>& axis, const Extension<2>& e, T cval, StreamHandle stream) {
  GRIDFLOW_REQUIRE(tunables.valid() && tunables.variant == FilterVariant::panel, "invalid panel filter tunables");
  if (update.empty()) return;
  const int k = panel_length<2>(axis);
  GRIDFLOW_REQUIRE(k != 0, "filter panel: no kernel compiled for these weights (panel_length)");
  const int groups = tunables.threads / panel_threads_x;
  RingArgs<T, 2> a = ring_args<T, 2>(tunables, in, out, update, axis, e, cval);
  const long long x = panel_threads_x * ring_vector<T>;
  a.pitch = panel_in_pitch<T>(static_cast<int>(x), k);
  a.stages = tunables.batch;
  const dim3 grid(static_cast<unsigned>((a.un[0] + x - 1) / x), static_cast<unsigned>((a.un[2] + a.segment - 1) / a.segment));
  GRIDFLOW_REQUIRE((a.un[0] + x - 1) / x <= 0x7fffffffll && grid.y <= 65535, "filter panel: too many blocks along y; use longer segments");
  const std::size_t bytes = panel_shared_bytes<T>(tunables, k);
  if (bytes > 48 * 1024 && bytes > device_shared_bytes_per_block()) {
    std::ostringstream os;
    os << "filter panel: " << tunables << " needs " << bytes << " bytes of shared memory per block (the device offers "
       << device_shared_bytes_per_block() << "): use fewer threads or one stage";
    throw Error(os.str());
  }
  const int width = panel_walk_width<T>(tunables);
  switch (k) {
    case 3: launch_shape<T, 3>(a, groups, width, grid, bytes, stream); break;
    case 5: launch_shape<T, 5>(a, groups, width, grid, bytes, stream); break;
    case 9: launch_shape<T, 9>(a, groups, width, grid, bytes, stream); break;
    default: launch_shape<T, 33>(a, groups, width, grid, bytes, stream); break;
  }
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
}

#define GRIDFLOW_INSTANTIATE_PANEL_CUDA(T)                                                                                             \
  template void launch_panel_cuda<T>(const FilterTunables&, mesh::FieldView<const T, 2>, mesh::FieldView<T, 2>, const mesh::Box<2>&,    \
                                     const std::array<std::vector<double>, 2>&, const Extension<2>&, T, StreamHandle);
GRIDFLOW_INSTANTIATE_PANEL_CUDA(float)
GRIDFLOW_INSTANTIATE_PANEL_CUDA(double)
#undef GRIDFLOW_INSTANTIATE_PANEL_CUDA

}  // namespace gridflow::kernels::filter
