#pragma once
// The ring filter kernel (FilterVariant::ring; the geometry is ring_block.hpp), included by
// ring_cuda_2d.cu and ring_cuda_3d.cu, which instantiate it (two files: they compile in parallel).
//
// A block walks its segment of the walk axis `cells` planes per step (a filter that leaves the
// walk axis alone: chunks of a row), one barrier per step (two in 3D):
//   copy  the planes of the step (stages - 1) ahead, global -> shared, asynchronously: one 16-byte
//         vector per thread and row where it lies inside the array (all but the edges' lanes),
//         else value by value mapped by the mode, plus the x halo value by value; the walk index
//         is mapped once per plane, the cross index once per row. A block whose staged values
//         all lie inside the array (RingBlock::interior: all but the edges' blocks) runs its own
//         instantiation of the walk: every row and the x halo as whole vectors from a running
//         pointer, no mapping, no call, outputs stored with no tests (ncu: 62 -> 42 instructions
//         per output for a Gaussian of sigma 1);
//   x     each thread its V columns of a row from one window of 16-byte shared loads (3D: every
//         row of the cross halo, into `mid`);
//   y     3D: each thread its V columns of its cross row from K1 rows of `mid`;
//   walk  the x (y) pass's values enter a register window of K2 - 1 + cells values per column;
//         each output is the walk pass over K2 of them, stored as one vector.
// Every output is the chain of a product and fused multiply-adds of axis_pass_point, pass after
// pass with the intermediates rounded to T, so the result equals the host reference bit for bit.
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <sstream>

#include "kernels/filter/correlate_cuda.hpp"
#include "kernels/filter/ring_block.hpp"
#include "kernels/filter/vector_pass.cuh"
#include "mesh/check.hpp"

namespace gridflow::kernels::filter {
namespace ring_detail {

/// Offset of (x, y, w) in a view (2D: y is ignored).
template <class T, int Dim>
__device__ inline long long at(const mesh::FieldView<T, Dim>& v, long long x, long long y, long long w) {
  if constexpr (Dim == 2) return v.offset(x, w);
  else return v.offset(x, y, w);
}

__device__ inline bool outside(long long g, long long lo, long long n) { return g < lo || g >= lo + n; }

/// Where a block sits (the same for all its threads): its origin along x, the cross axis and the
/// walk (chunks: the first chunk's x, the row), the planes it stages (chunks: chunks), its
/// outputs along the cross axis and the walk, and whether it is interior.
struct RingBlock {
  long long o0, o1, o2;
  int planes, t1, t2;
  /// Every staged value lies inside the array, the whole vectors around it too (those beyond the
  /// first and last needed columns only where the view holds them), and the outputs fill the
  /// tile: copies as whole vectors with no mapping, stores with no tests. Every block but those
  /// along the array's (and a rank's) edges.
  bool interior;
};

template <class T, int Dim, int K0, int K1, int K2>
__device__ inline RingBlock ring_block(const RingArgs<T, Dim>& a) {
  constexpr int V = ring_vector<T>;
  constexpr int R0 = K0 / 2, R1 = K1 / 2, R2 = K2 / 2;
  constexpr int P = ring_halo_before(K0, V);
  constexpr bool chunks = K2 == 1;
  const int X = static_cast<int>(blockDim.x) * V, TY = Dim == 3 ? static_cast<int>(blockDim.y) : 1;
  const long long uend0 = a.ulo[0] + a.un[0];
  RingBlock b;
  if constexpr (chunks) {
    const long long span = static_cast<long long>(a.segment) * X, groups = (a.un[0] + span - 1) / span;
    const long long row = blockIdx.x / groups;
    b.o0 = a.ulo[0] + (blockIdx.x - row * groups) * span;
    b.o2 = a.ulo[2] + row;
    const long long left = (uend0 - b.o0 + X - 1) / X;
    b.planes = static_cast<int>(left < a.segment ? left : a.segment);
  } else {
    b.o0 = a.ulo[0] + static_cast<long long>(blockIdx.x) * X;
    b.o2 = a.ulo[2] + static_cast<long long>(blockIdx.z) * a.segment;
    const long long left = a.ulo[2] + a.un[2] - b.o2;
    b.planes = static_cast<int>(left < a.segment ? left : a.segment) + K2 - 1;
  }
  b.o1 = a.ulo[1] + static_cast<long long>(blockIdx.y) * TY;
  const long long left1 = a.ulo[1] + a.un[1] - b.o1;
  b.t1 = static_cast<int>(left1 < TY ? left1 : TY);
  b.t2 = b.planes - (K2 - 1);
  const long long xneed = uend0 - 1 + (K0 - 1 - R0);
  const long long span = chunks ? static_cast<long long>(b.planes) * X : X;  // output columns
  bool in = a.aligned && b.o0 - P >= a.glo[0] && b.o0 - P >= a.in.lo[0] && b.o0 + span + P - 1 <= xneed &&
            b.o0 + span + P - 1 < a.glo[0] + a.gn[0] && b.o0 + span <= uend0;
  if constexpr (Dim == 3) in = in && b.t1 == TY && b.o1 - R1 >= a.glo[1] && b.o1 + TY - 1 + (K1 - 1 - R1) < a.glo[1] + a.gn[1];
  if constexpr (!chunks) in = in && b.o2 - R2 >= a.glo[2] && b.o2 - R2 + b.planes - 1 < a.glo[2] + a.gn[2];
  b.interior = in;
  return b;
}

/// One block's walk; Interior: the block is (RingBlock::interior), its copies and stores plain.
template <class T, int Dim, int K0, int K1, int K2, int CW, bool Interior>
__device__ __forceinline__ void ring_walk(const RingArgs<T, Dim>& a, const RingBlock& b) {
  constexpr int V = ring_vector<T>;
  constexpr int R0 = K0 / 2, R1 = K1 / 2, R2 = K2 / 2;
  constexpr int P = ring_halo_before(K0, V);  // a staged row: column ox - R0 + c at D0 + c, ox at P
  constexpr int D0 = P - R0;
  constexpr int HV = 2 * P / V;  // vectors of a staged row's x halo
  constexpr int H = K2 - 1 + CW;  // the walk window
  constexpr bool chunks = K2 == 1;  // the walk axis left alone: a block walks chunks of X columns of one row
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  T* const stage = reinterpret_cast<T*>(shared_bytes);
  // 2D blocks are one row of threads (launch_ring_cuda): TY = 1 known here shortens the loops.
  const int tx = static_cast<int>(threadIdx.x), ty = Dim == 3 ? static_cast<int>(threadIdx.y) : 0;
  const int TX = static_cast<int>(blockDim.x), TY = Dim == 3 ? static_cast<int>(blockDim.y) : 1;
  const int tid = ty * TX + tx, threads = TX * TY;
  const int X = TX * V, EY = TY + K1 - 1, pitch = a.pitch;
  const int plane_values = EY * pitch, step_values = CW * plane_values;
  T* const mid = stage + a.stages * step_values;
  const long long o0 = b.o0, o1 = b.o1, o2 = b.o2;
  const int planes = b.planes, t1 = b.t1, t2 = b.t2;
  const long long uend0 = a.ulo[0] + a.un[0];
  const bool constant = !Interior && a.mode == BoundaryMode::constant;
  const long long xneed = uend0 - 1 + (K0 - 1 - R0), yneed = a.ulo[1] + a.un[1] - 1 + (K1 - 1 - R1);
  const int steps = (planes + CW - 1) / CW;

  // The array row gy of staged cross row e (3D: mapped by the mode; 2D: row 0 stays); false where
  // no output needs the row or `constant` puts it outside the array.
  const auto cross_row = [&](int e, long long& gy) -> bool {
    if constexpr (Dim == 3) {
      const long long y = o1 - R1 + e;
      const long long my = y <= yneed ? index_in(y - a.glo[1], a.gn[1], a.mode) : -2;
      if (my < 0) return false;
      gy = a.glo[1] + my;
    }
    return true;
  };

  // Interior: plane after plane from a running pointer, every row one vector per thread and
  // its x halo's HV vectors.
  const long long in_walk = chunks ? X : a.in.stride[Dim - 1];
  const T* next = Interior ? a.in.data + at(a.in, o0 - P, o1 - R1, chunks ? o2 : o2 - R2) : nullptr;
  // The copies of step s's planes into stage slot `slot`: each thread one 16-byte vector per row
  // where it lies inside the array (every block but the edges' lanes), else value by value mapped
  // by the mode; the x halo value by value. Rows and planes that `constant` puts outside the array
  // are not copied (their passes' values become cval), nor values no output needs.
  const auto copy_step = [&](int s, int slot) {
#pragma unroll 1
    for (int c = 0; c < CW; ++c) {
      const int i = s * CW + c;
      if (i >= planes) break;
      T* const dst = stage + slot * step_values + c * plane_values;
      if constexpr (Interior) {
        {
          const long long row_step = TY * a.in.stride[1];
          const T* from = next + ty * a.in.stride[1] + P + tx * V;
          for (int e = ty; e < EY; e += TY, from += row_step) __pipeline_memcpy_async(dst + e * pitch + P + tx * V, from, 16);
        }
        for (int q = tid; q < EY * HV; q += threads) {
          const int e = q / HV, j = q - e * HV, col = j < P / V ? j * V : X + j * V;
          __pipeline_memcpy_async(dst + e * pitch + col, next + e * a.in.stride[1] + col, 16);
        }
        next += in_walk;
        continue;
      }
      long long ox = o0, w = o2;
      if constexpr (chunks) {
        ox = o0 + static_cast<long long>(i) * X;
      } else {
        const long long mw = index_in(o2 - R2 + i - a.glo[2], a.gn[2], a.mode);
        if (mw < 0) continue;
        w = a.glo[2] + mw;
      }
      const long long gx0 = ox + tx * V;
      const bool vector = a.aligned && gx0 >= a.glo[0] && gx0 + V - 1 < a.glo[0] + a.gn[0] && gx0 + V - 1 <= xneed;
      for (int e = ty; e < EY; e += TY) {
        long long gy = 0;
        if (!cross_row(e, gy)) continue;
        const long long row = at(a.in, 0, gy, w);
        T* const d = dst + e * pitch + P + tx * V;
        if (vector) {
          __pipeline_memcpy_async(d, a.in.data + (row + gx0), 16);
          continue;
        }
        copy_mapped(d, a.in.data + row, gx0, V, gx0, xneed, a.glo[0], a.gn[0], a.mode, a.cval);
      }
      if constexpr (K0 > 1)
        for (int q = tid; q < EY * (K0 - 1); q += threads) {
          const int e = q / (K0 - 1), j = q % (K0 - 1);
          const int col = j < R0 ? D0 + j : P + X + (j - R0);
          const long long gx = ox - R0 + (col - D0);
          if (gx > xneed) continue;
          long long gy = 0;
          if (!cross_row(e, gy)) continue;
          const long long mx = index_in(gx - a.glo[0], a.gn[0], a.mode);
          T* const d = dst + e * pitch + col;
          if (mx >= 0) __pipeline_memcpy_async(d, a.in.data + (at(a.in, 0, gy, w) + a.glo[0] + mx), sizeof(T));
          else *d = a.cval;
        }
    }
  };

  const int ns = a.stages;
  for (int s = 0; s < ns - 1; ++s) {
    if (s < steps) copy_step(s, s);
    __pipeline_commit();
  }
  const long long out_stride = chunks ? X : a.out.stride[Dim - 1];  // between consecutive outputs of a column
  T* out = a.out.data + at(a.out, o0 + tx * V, o1 + ty, o2);  // output 0, then the next one stored
  T h[H][V];
#pragma unroll
  for (int k = 0; k < H; ++k)
#pragma unroll
    for (int v = 0; v < V; ++v) h[k][v] = T(0);

  int read_slot = 0, write_slot = ns - 1;  // stage slots of steps s and s + ns - 1
#pragma unroll 1
  for (int s = 0; s < steps; ++s) {
    switch (ns) {  // step s's copies are done; the ns - 2 later steps' may still run
      case 2: __pipeline_wait_prior(0); break;
      case 3: __pipeline_wait_prior(1); break;
      default: __pipeline_wait_prior(2); break;
    }
    __syncthreads();
    // The slot of step s - 1, read before this barrier.
    if (s + ns - 1 < steps) copy_step(s + ns - 1, write_slot);
    __pipeline_commit();
    write_slot = write_slot + 1 == ns ? 0 : write_slot + 1;
    const T* const st = stage + read_slot * step_values;
    read_slot = read_slot + 1 == ns ? 0 : read_slot + 1;
    if constexpr (Dim == 2) {
#pragma unroll
      for (int c = 0; c < CW; ++c) window_pass<T, V, K0, D0>(h[K2 - 1 + c], a.w[0], st + c * plane_values + tx * V);
    } else {
      // Row by row (a thread's rows of the cross halo: one or two), the step's planes unrolled.
      for (int e = ty; e < EY; e += TY) {
        const bool blank = constant && outside(o1 - R1 + e, a.glo[1], a.gn[1]);
#pragma unroll
        for (int c = 0; c < CW; ++c) {
          T r[V];
          window_pass<T, V, K0, D0>(r, a.w[0], st + c * plane_values + e * pitch + tx * V);
          if (blank)
#pragma unroll
            for (int v = 0; v < V; ++v) r[v] = a.cval;
          store_vector(mid + (c * EY + e) * X + tx * V, r);
        }
      }
      __syncthreads();
#pragma unroll
      for (int c = 0; c < CW; ++c) {
        T m[K1][V];
#pragma unroll
        for (int k = 0; k < K1; ++k) load_vector<T, V>(m[k], mid + (c * EY + ty + k) * X + tx * V);
#pragma unroll
        for (int v = 0; v < V; ++v) h[K2 - 1 + c][v] = a.w[1][0] * m[0][v];
#pragma unroll
        for (int k = 1; k < K1; ++k)
#pragma unroll
          for (int v = 0; v < V; ++v) h[K2 - 1 + c][v] = multiply_add(a.w[1][k], m[k][v], h[K2 - 1 + c][v]);
      }
    }
    if (!chunks && constant)
#pragma unroll
      for (int c = 0; c < CW; ++c)
        if (outside(o2 - R2 + s * CW + c, a.glo[2], a.gn[2]))
#pragma unroll
          for (int v = 0; v < V; ++v) h[K2 - 1 + c][v] = a.cval;
    // The walk pass of the step's outputs, their chains interleaved (CW x V independent FMAs).
    T r[CW][V];
    if constexpr (K2 == 1) {
#pragma unroll
      for (int c = 0; c < CW; ++c)
#pragma unroll
        for (int v = 0; v < V; ++v) r[c][v] = h[c][v];
    } else {
#pragma unroll
      for (int c = 0; c < CW; ++c)
#pragma unroll
        for (int v = 0; v < V; ++v) r[c][v] = a.w[2][0] * h[c][v];
#pragma unroll
      for (int k = 1; k < K2; ++k)
#pragma unroll
        for (int c = 0; c < CW; ++c)
#pragma unroll
          for (int v = 0; v < V; ++v) r[c][v] = multiply_add(a.w[2][k], h[c + k][v], r[c][v]);
    }
#pragma unroll
    for (int c = 0; c < CW; ++c) {
      const int o = s * CW + c - (K2 - 1);
      if (o < 0 || o >= t2) continue;
      T* const d = out;
      out += out_stride;
      if constexpr (Interior) {
        store_vector(d, r[c]);
        continue;
      }
      if (ty >= t1) continue;
      // Columns of this output's row (chunks: of its chunk) left in the update box.
      const long long ox = chunks ? o0 + static_cast<long long>(o) * X : o0;
      const long long left0 = uend0 - ox - tx * V;
      if (left0 <= 0) continue;
      if (a.aligned && left0 >= V) {
        store_vector(d, r[c]);
      } else {
#pragma unroll
        for (int v = 0; v < V; ++v)
          if (v < left0) d[v] = r[c][v];
      }
    }
#pragma unroll
    for (int k = 0; k < K2 - 1; ++k)
#pragma unroll
      for (int v = 0; v < V; ++v) h[k][v] = h[k + CW][v];
  }
}

template <class T, int Dim, int K0, int K1, int K2, int CW>
__global__ void __launch_bounds__(K1 == 33 || K2 == 33 ? 256 : max_unrolled_threads) ring_kernel(const __grid_constant__ RingArgs<T, Dim> a) {
  const RingBlock b = ring_block<T, Dim, K0, K1, K2>(a);
  if (b.interior) ring_walk<T, Dim, K0, K1, K2, CW, true>(a, b);
  else ring_walk<T, Dim, K0, K1, K2, CW, false>(a, b);
}

template <class T, int Dim, int K0, int K1, int K2, int CW>
void launch(const RingArgs<T, Dim>& a, dim3 grid, dim3 block, std::size_t bytes, StreamHandle stream) {
  if (bytes > 48 * 1024)
    GRIDFLOW_CUDA_CHECK(cudaFuncSetAttribute(ring_kernel<T, Dim, K0, K1, K2, CW>, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
  ring_kernel<T, Dim, K0, K1, K2, CW><<<grid, block, bytes, stream>>>(a);
}

/// The kernel for the lengths (ring_lengths) and cells: K on every filtered axis, walk cells 2, 4 or 8.
template <class T, int Dim, int K>
void launch_length(const RingArgs<T, Dim>& a, const std::array<int, 3>& length, int cells, dim3 grid, dim3 block, std::size_t bytes,
                   StreamHandle stream) {
  if constexpr (Dim == 2) {
    if (length[2] == 1) {
      switch (cells) {
        case 2: return launch<T, 2, K, 1, 1, 2>(a, grid, block, bytes, stream);
        case 4: return launch<T, 2, K, 1, 1, 4>(a, grid, block, bytes, stream);
        default: return launch<T, 2, K, 1, 1, 8>(a, grid, block, bytes, stream);
      }
    }
    switch (cells) {
      case 2: return launch<T, 2, K, 1, K, 2>(a, grid, block, bytes, stream);
      case 4: return launch<T, 2, K, 1, K, 4>(a, grid, block, bytes, stream);
      default: return launch<T, 2, K, 1, K, 8>(a, grid, block, bytes, stream);
    }
  } else {
    switch (cells) {
      case 2: return launch<T, 3, K, K, K, 2>(a, grid, block, bytes, stream);
      case 4: return launch<T, 3, K, K, K, 4>(a, grid, block, bytes, stream);
      default: return launch<T, 3, K, K, K, 8>(a, grid, block, bytes, stream);
    }
  }
}

}  // namespace ring_detail

template <class T, int Dim>
void launch_ring_cuda(const FilterTunables& tunables, mesh::FieldView<const T, Dim> in, mesh::FieldView<T, Dim> out, const mesh::Box<Dim>& update,
                      const std::array<std::vector<double>, Dim>& axis, const Extension<Dim>& e, T cval, StreamHandle stream) {
  GRIDFLOW_REQUIRE(tunables.valid() && tunables.variant == FilterVariant::ring, "invalid ring filter tunables");
  if (update.empty()) return;
  const std::array<int, 3> length = ring_lengths<Dim>(axis);
  GRIDFLOW_REQUIRE(length[0] != 0, "filter ring: no kernel compiled for these weights (ring_lengths)");
  const RingArgs<T, Dim> a = ring_args<T, Dim>(tunables, in, out, update, axis, e, cval);
  const int ty = Dim == 3 ? tunables.tile_y : 1, tx = tunables.threads / ty;
  const long long x = static_cast<long long>(tx) * ring_vector<T>;
  dim3 grid(static_cast<unsigned>((a.un[0] + x - 1) / x), static_cast<unsigned>((a.un[1] + ty - 1) / ty),
            static_cast<unsigned>((a.un[2] + a.segment - 1) / a.segment));
  if (length[2] == 1) {  // chunks: segment * x columns of one row per block, all blocks along grid x
    const long long span = x * a.segment, blocks = (a.un[0] + span - 1) / span * a.un[2];
    GRIDFLOW_REQUIRE(Dim == 2 && blocks <= 0x7fffffffll, "filter ring: too many blocks; use longer segments");
    grid = dim3(static_cast<unsigned>(blocks), 1, 1);
  }
  GRIDFLOW_REQUIRE(grid.y <= 65535 && grid.z <= 65535, "filter ring: too many blocks along y or z; use longer segments");
  const std::size_t bytes = ring_shared_bytes<T, Dim>(tunables, length);
  if (tunables.threads > ring_max_threads(length) || (bytes > 48 * 1024 && bytes > device_shared_bytes_per_block())) {
    std::ostringstream os;
    os << "filter ring: " << tunables << " needs " << bytes << " bytes of shared memory per block (the device offers "
       << device_shared_bytes_per_block() << ") and " << tunables.threads << " threads (at most " << ring_max_threads(length)
       << " for these weights): use fewer threads, rows or stages";
    throw Error(os.str());
  }
  const dim3 block(static_cast<unsigned>(tx), static_cast<unsigned>(ty));
  const int cells = tunables.cells;
  switch (length[0]) {
    case 3: ring_detail::launch_length<T, Dim, 3>(a, length, cells, grid, block, bytes, stream); break;
    case 5: ring_detail::launch_length<T, Dim, 5>(a, length, cells, grid, block, bytes, stream); break;
    case 9: ring_detail::launch_length<T, Dim, 9>(a, length, cells, grid, block, bytes, stream); break;
    default: ring_detail::launch_length<T, Dim, 33>(a, length, cells, grid, block, bytes, stream); break;
  }
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
}

}  // namespace gridflow::kernels::filter
