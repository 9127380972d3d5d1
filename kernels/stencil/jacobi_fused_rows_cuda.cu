// K fused Jacobi sweeps in registers of adjacent points (the "rows" kernel): the fused kernel's
// streaming (jacobi_fused_cuda.cu says it in full) laid out so that a point costs little beyond
// its arithmetic. A thread owns V = 2 consecutive columns of CY consecutive rows, so the points
// beside its inner ones are its own registers and it loads, stores and shares its columns as one
// vector; the shared planes interleave rows, parities and levels at a compile-time width, so every
// shared-memory offset from a thread's place is an immediate; and the plane loop is unrolled by two
// steps, so each level's two planes in registers swap roles instead of being copied. The planes
// have a row of padding on either side, so the tile's rim rows compute (values nobody reads)
// instead of testing. A warp whose columns lie inside the active box and the box read runs without
// a test of its own points (Plain), with one a level and step where the block's chunk meets the
// box's z ends (PlainZ); the other warps test every point (Tests), as the fused kernel does, with
// the same outcome. Tiles start at vector-aligned columns, so it needs even strides.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "kernels/stencil/jacobi_fused_extent.cuh"
#include "kernels/stencil/jacobi_fused_rows_cuda.hpp"

namespace gridflow::kernels::stencil {

namespace {

constexpr int warp_size = 32;
constexpr int V = 2;  // columns a thread

template <class T>
struct alignas(V * sizeof(T)) Pair {
  T v[V];
};

// Offset in the shared planes (W columns a row) of (row r, parity q, level l, column x).
template <int K, int W>
__device__ constexpr int rows_index(int r, int q, int l, int x) {
  return ((r * 2 + q) * K + l) * W + x;
}

// What a thread knows of its points: where they are and which tests they need.
template <int CY>
struct RowsPoints {
  long long col[CY];  // offset of the first column from U's low corner at z = 0
  int last[CY][V];    // Tests: the last sweep that updates the point and is right there, -1 when none
  unsigned reads;     // Tests: bit c V + v: the point lies in the box the launch reads
  unsigned writes;    // bit c V + v: the point is an output of this block
};

enum class RowsMode { Plain, PlainZ, Tests };

template <RowsMode Mode, class T, int K, int CY, int W>
__device__ __forceinline__ void stream_rows(const T* __restrict__ in, T* __restrict__ out, const T* __restrict__ f,
                                            const FusedExtent& e, const PoissonCoefficients<T>& k, T* place,
                                            const RowsPoints<CY>& pts, int z_lo, int z_hi) {
  constexpr bool tests = Mode == RowsMode::Tests, z_tests = Mode != RowsMode::Plain;
  constexpr unsigned pair = (1u << V) - 1;
  T level[K][2][CY][V];  // before step u (0 or 1): level l at plane p - l - 2 in [u], p - l - 1 in [1 - u]
  T rhs[K + 1][CY][V];   // f at planes p .. p - K
  T u_next[CY][V];       // level 0 at plane p + 1, loaded a step ahead
#pragma unroll
  for (int c = 0; c < CY; ++c)
#pragma unroll
    for (int v = 0; v < V; ++v) {
#pragma unroll
      for (int l = 0; l < K; ++l) level[l][0][c][v] = level[l][1][c][v] = T(0);
#pragma unroll
      for (int q = 0; q <= K; ++q) rhs[q][c][v] = T(0);
    }
  // The steps at which sweep l is taken (z_tests): plane p - l - 1 needed by the block and updated
  // by sweep l (last_sweep_at(z) >= l).
  int take_lo[K], take_hi[K];
  if (z_tests) {
#pragma unroll
    for (int l = 0; l < K; ++l) {
      take_lo[l] = max(max(e.a_lo[2], l - K + 1), z_lo - (K - l - 1)) + l + 1;
      take_hi[l] = min(min(e.a_hi[2], e.n[2] + K - 2 - l), z_hi + (K - l - 1)) + l + 1;
    }
  }
  const int p_start = z_tests ? max(z_lo - K, read_lo<K>(e, 2)) : z_lo - K, p_end = z_hi + K;
  const int z_read_hi = read_hi<K>(e, 2);
  const auto load = [&](const T* __restrict__ from, int p, int c, T (&to)[V]) {
    const T* const at = from + pts.col[c] + p * e.sz;
    const unsigned mask = z_tests && p > z_read_hi ? 0u : tests ? pts.reads >> (c * V) & pair : pair;
    if (mask == pair) {
      const Pair<T> q = *reinterpret_cast<const Pair<T>*>(at);
#pragma unroll
      for (int v = 0; v < V; ++v) to[v] = q.v[v];
    } else {
#pragma unroll
      for (int v = 0; v < V; ++v) to[v] = mask >> v & 1u ? __ldg(at + v) : T(0);
    }
  };
#pragma unroll
  for (int c = 0; c < CY; ++c) {
    load(in, p_start, c, u_next[c]);
    load(f, p_start, c, rhs[0][c]);
  }

  for (int p0 = p_start; p0 <= p_end; p0 += 2) {  // uniform over the block
#pragma unroll
    for (int u = 0; u < 2; ++u) {
      const int p = p0 + u;
      if (p > p_end) break;
      const T* const stored = place + rows_index<K, W>(0, 1 - u, 0, 0);  // written last step
      T* const fresh = place + rows_index<K, W>(0, u, 0, 0);             // read next step
      T a[CY][V];  // level l at plane p - l, then level l + 1 at plane p - l - 1
#pragma unroll
      for (int c = 0; c < CY; ++c)
#pragma unroll
        for (int v = 0; v < V; ++v) a[c][v] = u_next[c][v];
      if (p < p_end) {
#pragma unroll
        for (int c = 0; c < CY; ++c) load(in, p + 1, c, u_next[c]);
      }
#pragma unroll
      for (int l = 0; l < K; ++l) {
        const T(&below)[CY][V] = level[l][u];
        const T(&centre)[CY][V] = level[l][1 - u];
        T next[CY][V];
        const bool taken = !z_tests || (p >= take_lo[l] && p <= take_hi[l]);
        if (taken) {  // uniform over the block
          const Pair<T> south = *reinterpret_cast<const Pair<T>*>(stored + rows_index<K, W>(-1, 0, l, 0));
          const Pair<T> north = *reinterpret_cast<const Pair<T>*>(stored + rows_index<K, W>(CY, 0, l, 0));
#pragma unroll
          for (int c = 0; c < CY; ++c) {
            const T* const s = stored + rows_index<K, W>(c, 0, l, 0);
#pragma unroll
            for (int v = 0; v < V; ++v) {
              if (tests && l > pts.last[c][v]) {
                next[c][v] = centre[c][v];
                continue;
              }
              const T west = v == 0 ? s[-1] : centre[c][v - 1];
              const T east = v == V - 1 ? s[V] : centre[c][v + 1];
              const T sv = c == 0 ? south.v[v] : centre[c - 1][v];
              const T nv = c == CY - 1 ? north.v[v] : centre[c + 1][v];
              next[c][v] = jacobi_point(west, east, sv, nv, below[c][v], a[c][v], rhs[l + 1][c][v], k);
            }
          }
        } else {
#pragma unroll
          for (int c = 0; c < CY; ++c)
#pragma unroll
            for (int v = 0; v < V; ++v) next[c][v] = centre[c][v];
        }
#pragma unroll
        for (int c = 0; c < CY; ++c) {
          Pair<T> q;
#pragma unroll
          for (int v = 0; v < V; ++v) {
            q.v[v] = level[l][u][c][v] = a[c][v];
            a[c][v] = next[c][v];
          }
          *reinterpret_cast<Pair<T>*>(fresh + rows_index<K, W>(c, 0, l, 0)) = q;
        }
      }
      const int z = p - K;
      if (z >= z_lo && z <= z_hi) {
#pragma unroll
        for (int c = 0; c < CY; ++c) {
          T* const at = out + pts.col[c] + z * e.sz;
          const unsigned mask = pts.writes >> (c * V) & pair;
          if (mask == pair) {
            Pair<T> q;
#pragma unroll
            for (int v = 0; v < V; ++v) q.v[v] = a[c][v];
            *reinterpret_cast<Pair<T>*>(at) = q;
          } else {
#pragma unroll
            for (int v = 0; v < V; ++v)
              if (mask >> v & 1u) at[v] = a[c][v];
          }
        }
      }
#pragma unroll
      for (int c = 0; c < CY; ++c) {
#pragma unroll
        for (int q = K; q > 0; --q)
#pragma unroll
          for (int v = 0; v < V; ++v) rhs[q][c][v] = rhs[q - 1][c][v];
        if (p < p_end) load(f, p + 1, c, rhs[0][c]);
      }
      __syncthreads();
    }
  }
}

// x_shift: the first tile starts x_shift + K columns before U, so that every tile starts at a
// vector-aligned column.
template <class T, int K, int CY, int BX>
__global__ void jacobi_fused_rows_kernel(const T* __restrict__ in, T* __restrict__ out, const T* __restrict__ f,
                                         FusedExtent e, PoissonCoefficients<T> k, int x_shift) {
  constexpr int W = BX * V;  // the tile's columns
  extern __shared__ unsigned char shared_bytes[];
  T* const planes = reinterpret_cast<T*>(shared_bytes);
  const int rows = static_cast<int>(blockDim.y) * CY;
  const int x0 = static_cast<int>(blockIdx.x) * (W - 2 * K) - K - x_shift;
  const int y0 = static_cast<int>(blockIdx.y) * (rows - 2 * K) - K;
  const int z_lo = static_cast<int>(blockIdx.z) * e.chunk_z, z_hi = min(z_lo + e.chunk_z, e.n[2]) - 1;
  const int tx = threadIdx.x, r0 = threadIdx.y * CY;

  RowsPoints<CY> pts{};
#pragma unroll
  for (int c = 0; c < CY; ++c) {
    const int row = r0 + c, y = y0 + row;
    const int rim = min(row, rows - 1 - row);  // the sweeps right at this row are 0 .. rim - 1
    const bool y_read = y >= read_lo<K>(e, 1) && y <= read_hi<K>(e, 1);
    const int y_last = min(last_sweep_at<K>(y, e.n[1], e.a_lo[1], e.a_hi[1]), rim - 1);
    pts.col[c] = x0 + tx * V + y * e.sy;
#pragma unroll
    for (int v = 0; v < V; ++v) {
      const int column = tx * V + v, x = x0 + column;
      const bool x_read = x >= read_lo<K>(e, 0) && x <= read_hi<K>(e, 0);
      const int x_last = min(last_sweep_at<K>(x, e.n[0], e.a_lo[0], e.a_hi[0]), min(column, W - 1 - column) - 1);
      const bool x_out = column >= K && column < W - K && x >= 0 && x < e.n[0];
      pts.last[c][v] = min(x_last, y_last);
      pts.reads |= unsigned(x_read && y_read) << (c * V + v);
      pts.writes |= unsigned(x_out && row >= K && row < rows - K && y < e.n[1]) << (c * V + v);
    }
  }
  const int plane_values = rows_index<K, W>(rows + 2, 0, 0, 0);  // the rows and their padding
  for (int q = threadIdx.y * BX + tx; q < plane_values; q += blockDim.y * BX) planes[q] = T(0);
  __syncthreads();

  // A warp lies in one thread row (BX is a multiple of 32): its mode is uniform over it.
  const int warp_x0 = x0 + tx / warp_size * warp_size * V;
  const bool plain =
      span_inside<K>(e, 0, warp_x0, warp_x0 + warp_size * V - 1) && span_inside<K>(e, 1, y0 + r0, y0 + r0 + CY - 1);
  T* const place = planes + rows_index<K, W>(r0 + 1, 0, 0, tx * V);  // past the padding row
  // Every path reaches the same barriers, one a step: the block's steps are the same for every warp.
  if (plain && chunk_inside<K>(e, z_lo, z_hi))
    stream_rows<RowsMode::Plain, T, K, CY, W>(in, out, f, e, k, place, pts, z_lo, z_hi);
  else if (plain)
    stream_rows<RowsMode::PlainZ, T, K, CY, W>(in, out, f, e, k, place, pts, z_lo, z_hi);
  else
    stream_rows<RowsMode::Tests, T, K, CY, W>(in, out, f, e, k, place, pts, z_lo, z_hi);
}

// Launches the kernel and returns true, or returns false where it cannot take the launch: strides
// or fields not aligned to its vectors, planes and padding rows beyond a block's shared memory, or
// a block beyond its registers (the fused kernel then takes it).
template <class T, int K, int CY, int BX>
bool launch_rows(const JacobiCudaParams& p, const T* in, T* out, const T* f, const FusedExtent& e,
                 const PoissonCoefficients<T>& k, StreamHandle stream) {
  const auto kernel = jacobi_fused_rows_kernel<T, K, CY, BX>;
  static const FusedLimits limits = fused_limits(kernel);
  constexpr int W = BX * V;
  const int rows = p.block_y * CY;
  const std::size_t shared = static_cast<std::size_t>(2 * K * W) * (rows + 2) * sizeof(T);
  const auto parity = [](const T* q) { return static_cast<int>(reinterpret_cast<std::uintptr_t>(q) / sizeof(T) % V); };
  const bool aligned = parity(out) == parity(in) && parity(f) == parity(in) && e.sy % V == 0 && e.sz % V == 0;
  if (!aligned || shared > limits.shared_bytes || p.block_x * p.block_y > limits.threads) return false;
  // The first tile's first column, U's -K - x_shift, at an even place in memory.
  const int x_shift = ((parity(in) - K) % V + V) % V;
  const int out_x = W - 2 * K, out_y = rows - 2 * K;
  const dim3 block(BX, p.block_y);
  const dim3 grid((e.n[0] + x_shift + out_x - 1) / out_x, (e.n[1] + out_y - 1) / out_y, (e.n[2] + e.chunk_z - 1) / e.chunk_z);
  kernel<<<grid, block, shared, stream>>>(in, out, f, e, k, x_shift);
  return true;
}

template <class T, int K, int CY>
bool dispatch_width(const JacobiCudaParams& p, const T* in, T* out, const T* f, const FusedExtent& e,
                    const PoissonCoefficients<T>& k, StreamHandle stream) {
  switch (p.block_x) {
    case 32: return launch_rows<T, K, CY, 32>(p, in, out, f, e, k, stream);
    case 64: return launch_rows<T, K, CY, 64>(p, in, out, f, e, k, stream);
    case 128: return launch_rows<T, K, CY, 128>(p, in, out, f, e, k, stream);
  }
  return false;
}

template <class T, int K>
bool dispatch_rows(const JacobiCudaParams& p, const T* in, T* out, const T* f, const FusedExtent& e,
                   const PoissonCoefficients<T>& k, StreamHandle stream) {
  switch (p.cells_y) {
    case 1: return dispatch_width<T, K, 1>(p, in, out, f, e, k, stream);
    case 2: return dispatch_width<T, K, 2>(p, in, out, f, e, k, stream);
  }
  return false;
}

}  // namespace

template <class T>
bool launch_jacobi_fused_rows_cuda(const JacobiCudaParams& params, int sweeps, const T* in, T* out, const T* f,
                                   const FusedExtent& e, const PoissonCoefficients<T>& k, StreamHandle stream) {
  switch (sweeps) {
    case 2: return dispatch_rows<T, 2>(params, in, out, f, e, k, stream);
    case 3: return dispatch_rows<T, 3>(params, in, out, f, e, k, stream);
    case 4: return dispatch_rows<T, 4>(params, in, out, f, e, k, stream);
  }
  return false;
}

template bool launch_jacobi_fused_rows_cuda<float>(const JacobiCudaParams&, int, const float*, float*, const float*,
                                                   const FusedExtent&, const PoissonCoefficients<float>&, StreamHandle);
template bool launch_jacobi_fused_rows_cuda<double>(const JacobiCudaParams&, int, const double*, double*, const double*,
                                                    const FusedExtent&, const PoissonCoefficients<double>&, StreamHandle);

}  // namespace gridflow::kernels::stencil
