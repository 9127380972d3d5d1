// Temporal blocking of the heat stencil by streaming (AN5D/EBISU style): one launch takes K steps,
// and each warp owns a strip of 32 V columns of the update box (V consecutive columns a lane),
// H = K rounded up to V of them recomputed on either side, and a segment of output rows, which it
// walks from K rows below to K rows above. Time level s keeps its last two rows in registers; when
// row y of level 0 arrives from memory, level s + 1 computes row y - s - 1 from level s's rows
// y - s - 2, y - s - 1 and y - s, so every point crosses DRAM once a launch. Lanes pass their edge
// values to their neighbours by shuffles: the strip's outer lanes see wrong neighbours, which spoils
// one column a level at each side, inside the H recomputed ones. Rows below a level's first valid
// row hold values made from the zeros the registers start with; they reach no valid row (a level's
// first valid row reads only valid rows of the level below). Every point is computed by heat_point
// from the values a chain of single steps uses, so the result is the chain's, bit for bit.
// The warps whose every point is active (most of a large box) run in a kernel of their own, with
// fewer registers, beside the general kernel of the others.
#include <cuda_runtime.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "kernels/stencil/heat_cuda.hpp"
#include "kernels/stencil/heat_fused_boxes.hpp"
#include "kernels/stencil/heat_point.hpp"
#include "mesh/check.hpp"
#include "mesh/device.hpp"

namespace gridflow::kernels::stencil {

namespace {

constexpr int warp_size = 32;
constexpr int warps_per_block = 4;
constexpr unsigned full_warp = 0xffffffffu;

/// One launch's boxes, and its split into warps.
struct StreamGeometry : FusedBoxes {
  int halo;                ///< H: columns recomputed on each side of a strip, K rounded up to V
  int shift;               ///< columns from an aligned address to the update box's first one
  int strips, segments;    ///< warps along x and along y
  int segment_rows;        ///< output rows per warp
  int inner_strip0, inner_strips;      ///< the interior warps (strip_inside and segment_inside):
  int inner_segment0, inner_segments;  ///< a rectangle of strips and segments, maybe empty
};

/// Output columns of a strip of V values a lane.
GRIDFLOW_HOST_DEVICE inline int strip_columns(const StreamGeometry& g, int V) { return warp_size * V - 2 * g.halo; }

/// A strip's first output column (negative for the first strip of shifted rows).
GRIDFLOW_HOST_DEVICE inline int strip_out_x0(const StreamGeometry& g, int V, int strip) {
  return strip * strip_columns(g, V) - g.shift;
}

/// A segment's last output row; its first is segment * segment_rows.
GRIDFLOW_HOST_DEVICE inline int segment_out_y1(const StreamGeometry& g, int segment) {
  const int end = (segment + 1) * g.segment_rows;
  return (end < g.ny ? end : g.ny) - 1;
}

/// Whether every point a warp computes is active (then it runs stream_segment's Interior path):
/// its strip's columns, halo lanes too ...
template <int V>
GRIDFLOW_HOST_DEVICE inline bool strip_inside(const StreamGeometry& g, int strip) {
  const int x0 = strip_out_x0(g, V, strip) - g.halo;  // lane 0's first column
  return x0 >= g.ax0 && x0 + warp_size * V - 1 <= g.ax1;
}

/// ... and the rows of its segment at every level, y_begin - K .. y_end - 1.
GRIDFLOW_HOST_DEVICE inline bool segment_inside(const StreamGeometry& g, int segment) {
  return segment * g.segment_rows - 2 * g.steps >= g.ay0 && segment_out_y1(g, segment) + g.steps - 1 <= g.ay1;
}

template <class T, int V>
struct alignas(sizeof(T) * V) Pack {
  T v[V];
};

/// Level 0 of row y at this lane's columns: the readable ones from `row`, zeros elsewhere.
template <class T, int V>
__device__ __forceinline__ void load_row(const T* __restrict__ row, bool row_readable, unsigned readable, T (&to)[V]) {
  if (row_readable && readable == (1u << V) - 1) {
    const Pack<T, V> p = *reinterpret_cast<const Pack<T, V>*>(row);
#pragma unroll
    for (int v = 0; v < V; ++v) to[v] = p.v[v];
    return;
  }
#pragma unroll
  for (int v = 0; v < V; ++v) to[v] = row_readable && (readable >> v & 1u) ? row[v] : T(0);
}

/// `next` (level s's values of row r at columns x0..x0 + V - 1) with its boundary points set from
/// the ring. Out of line: the rare rows and lanes that need it keep its index arithmetic out of the
/// registers of the stream.
template <class T, int V>
__device__ __noinline__ Pack<T, V> ring_values(HeatRingView<T> ring, int s, int x0, int r, Pack<T, V> next) {
#pragma unroll
  for (int v = 0; v < V; ++v) next.v[v] = ring.at(s, x0 + v, r, next.v[v]);
  return next;
}

/// Streams this warp's strip and segment through K levels and writes its output points; returns
/// whether one of them is not finite. With Watch, writes nothing and records the first non-finite
/// value of each level that this lane computes exactly (on the update box grown by K - level, where
/// the values are the chain's); a lane's later rows of a level have higher keys than its first.
/// Interior: every point the warp computes is active (strip_inside, segment_inside), so no point
/// keeps its value and none is a boundary point; the selects and the ring's tests drop out.
/// Exact: g.steps == KMAX. No level is then behind a test of its own, so a row's levels are one
/// block of straight-line code, and the row loop is unrolled by 3: each level's rows r - 1, r and
/// r + 1 then rotate through three sets of registers instead of being copied down once a row.
template <bool Watch, bool Interior, bool Exact, class T, int KMAX, int V>
__device__ __forceinline__ bool stream_segment(const T* __restrict__ in, T* __restrict__ out, long long pitch,
                                               const StreamGeometry& g, const HeatRingView<T>& ring, T cx, T cy,
                                               const core::NonFiniteWatch& watch, int strip, int segment, int lane) {
  constexpr int unroll = Exact && !Watch ? 3 : 1;  // the Watch stream is rare: kept short
  const int K = Exact ? KMAX : g.steps;
  const int out_x0 = strip_out_x0(g, V, strip);
  const int out_x1 = min(out_x0 + strip_columns(g, V), g.nx) - 1;
  const int c0 = lane * V;  // this lane's first column within the strip
  const int x0 = out_x0 - g.halo + c0;
  const int out_y0 = segment * g.segment_rows;
  const int out_y1 = segment_out_y1(g, segment);
  const int y_begin = out_y0 - K, y_end = out_y1 + K;

  unsigned readable = 0, active = 0, written = 0, ring_column = 0;
#pragma unroll
  for (int v = 0; v < V; ++v) {
    const int x = x0 + v;
    readable |= unsigned(x >= g.rx0 && x <= g.rx1) << v;
    active |= unsigned(x >= g.ax0 && x <= g.ax1) << v;
    written |= unsigned(x >= max(out_x0, 0) && x <= out_x1) << v;
    ring_column |= unsigned(x == g.ax0 - 1 || x == g.ax1 + 1) << v;
  }

  T below[KMAX][V], centre[KMAX][V];  // level s's rows y - s - 2 and y - s - 1
#pragma unroll
  for (int s = 0; s < KMAX; ++s)
#pragma unroll
    for (int v = 0; v < V; ++v) below[s][v] = centre[s][v] = T(0);
  unsigned recorded = 0;  // Watch: levels this lane has recorded
  bool non_finite = false;

  const T* src = in + static_cast<long long>(y_begin) * pitch + x0;
  T ahead[V];
  load_row<T, V>(src, y_begin >= g.ry0 && y_begin <= g.ry1, readable, ahead);
#pragma unroll unroll
  for (int y = y_begin; y <= y_end; ++y) {
    T row[V];
#pragma unroll
    for (int v = 0; v < V; ++v) row[v] = ahead[v];
    src += pitch;
    if (y < y_end) load_row<T, V>(src, y + 1 >= g.ry0 && y + 1 <= g.ry1, readable, ahead);
    const int dy0 = y - g.ay0, dy1 = y - g.ay1;

#pragma unroll
    for (int s = 0; s < KMAX; ++s) {
      if (s < K) {
        // Level s + 1 at row r from level s's rows r - 1 (below), r (centre) and r + 1 (row).
        const int r = y - s - 1;
        const bool row_active = dy0 >= s + 1 && dy1 <= s + 1;  // ay0 <= r <= ay1
        const T west = __shfl_up_sync(full_warp, centre[s][V - 1], 1);
        const T east = __shfl_down_sync(full_warp, centre[s][0], 1);
        T next[V];
#pragma unroll
        for (int v = 0; v < V; ++v) {
          const T w = v == 0 ? west : centre[s][v - 1];
          const T e = v == V - 1 ? east : centre[s][v + 1];
          const T value = heat_point(centre[s][v], w, e, below[s][v], row[v], cx, cy);
          next[v] = Interior || (row_active && (active >> v & 1u)) ? value : centre[s][v];
        }
        // Moving boundary points take their values at step s + 1: rows r = ay0 - 1 and ay1 + 1, and
        // the lanes holding columns ax0 - 1 or ax1 + 1 (compared as y - ay0 == s etc., so that no
        // per-level bound is kept in registers across the rows).
        if (!Interior && ring.values && s + 1 < K && (dy0 == s || dy1 == s + 2 || ring_column)) {
          Pack<T, V> p;
#pragma unroll
          for (int v = 0; v < V; ++v) p.v[v] = next[v];
          p = ring_values(ring, s + 1, x0, r, p);
#pragma unroll
          for (int v = 0; v < V; ++v) next[v] = p.v[v];
        }
        // Exact rows of level s + 1: past its first valid row (y_begin + s + 1) and in the update box
        // grown by K - s - 1 (r >= s + 1 - K; r < ny + K - s - 1 is y < ny + K).
        if (Watch && row_active && y - y_begin >= 2 * s + 2 && y + K >= 2 * s + 2 && y < g.ny + K &&
            !(recorded >> s & 1u)) {
          const int level = s + 1;
#pragma unroll
          for (int v = 0; v < V; ++v) {
            const int x = x0 + v;
            const bool exact = c0 + v >= level && c0 + v < warp_size * V - level && x >= level - K && x < g.nx + K - level;
            if (exact && (active >> v & 1u) && !core::finite_value(next[v])) {
              core::record_non_finite(watch.slot, watch.key(watch.step + s, g.i0 + x, g.j0 + r));
              recorded |= 1u << s;
              break;  // the lowest x of the row: the lowest key
            }
          }
        }
#pragma unroll
        for (int v = 0; v < V; ++v) {
          below[s][v] = centre[s][v];
          centre[s][v] = row[v];
          row[v] = next[v];
        }
      }
    }

    // `row` is level K at row y - K.
    const int r = y - K;
    if (!Watch && r >= out_y0 && written) {
      T* dst = out + static_cast<long long>(r) * pitch + x0;
      if (written == (1u << V) - 1) {
        Pack<T, V> p;
#pragma unroll
        for (int v = 0; v < V; ++v) p.v[v] = row[v];
        *reinterpret_cast<Pack<T, V>*>(dst) = p;
      } else {
#pragma unroll
        for (int v = 0; v < V; ++v)
          if (written >> v & 1u) dst[v] = row[v];
      }
#pragma unroll
      for (int v = 0; v < V; ++v) non_finite |= (written >> v & 1u) && !core::finite_value(row[v]);
    }
  }
  return non_finite;
}

// The general kernel: the warps outside the rectangle of interior warps.
// A non-finite value stays non-finite at its point (NaN, or infinity that the next step turns into
// NaN), so one that appears at a point of the update box is written there by the warp whose output
// holds it, which then streams its segment again with a check at every exact value to find the first
// step and point (the values are the same). One outside the update box is another launch's output.
template <class T, int KMAX, int V, bool Exact>
__global__ void __launch_bounds__(warp_size* warps_per_block)
    heat_stream_kernel(const T* __restrict__ in, T* __restrict__ out, long long pitch, StreamGeometry g,
                       HeatRingView<T> ring, T cx, T cy, core::NonFiniteWatch watch) {
  const int warp = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) / warp_size);
  const int lane = static_cast<int>(threadIdx.x % warp_size);
  const int strip = warp % g.strips, segment = warp / g.strips;
  if (segment >= g.segments) return;  // whole warps
  if (strip - g.inner_strip0 >= 0 && strip - g.inner_strip0 < g.inner_strips && segment - g.inner_segment0 >= 0 &&
      segment - g.inner_segment0 < g.inner_segments)
    return;  // an interior warp: heat_stream_interior_kernel's
  const bool non_finite =
      stream_segment<false, false, Exact, T, KMAX, V>(in, out, pitch, g, ring, cx, cy, watch, strip, segment, lane);
  if (__any_sync(full_warp, non_finite) && watch.slot)
    stream_segment<true, false, Exact, T, KMAX, V>(in, out, pitch, g, ring, cx, cy, watch, strip, segment, lane);
}

/// Blocks an SM the interior kernel is compiled for. The exact float instances with K V = 32 and
/// V <= 4 (K 8, V 4; K 16, V 2) take 136 and 164 registers uncapped; capped at 4 blocks (128
/// registers, 60 and 36 B spilled) they run faster: 1651-1653 -> 1730-1733 Gcell/s at K 8, V 4 on
/// an H200. K 4, V 8 would spill 146 B.
template <class T, int KMAX, int V, bool Exact>
constexpr int interior_min_blocks = sizeof(T) == 4 && Exact && KMAX * V == 32 && V <= 4 ? 4 : 1;

// The rectangle of interior warps, in a kernel of its own: without the selects, the ring and the
// moving boundary it needs fewer registers than the general stream, so more of its warps share an SM.
template <class T, int KMAX, int V, bool Exact>
__global__ void __launch_bounds__(warp_size* warps_per_block, (interior_min_blocks<T, KMAX, V, Exact>))
    heat_stream_interior_kernel(const T* __restrict__ in, T* __restrict__ out, long long pitch, StreamGeometry g,
                                T cx, T cy, core::NonFiniteWatch watch) {
  const int warp = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) / warp_size);
  const int lane = static_cast<int>(threadIdx.x % warp_size);
  const int strip = g.inner_strip0 + warp % g.inner_strips, segment = g.inner_segment0 + warp / g.inner_strips;
  if (segment >= g.inner_segment0 + g.inner_segments) return;  // whole warps
  const HeatRingView<T> no_ring{};  // no boundary point inside
  const bool non_finite =
      stream_segment<false, true, Exact, T, KMAX, V>(in, out, pitch, g, no_ring, cx, cy, watch, strip, segment, lane);
  if (__any_sync(full_warp, non_finite) && watch.slot)
    stream_segment<true, true, Exact, T, KMAX, V>(in, out, pitch, g, no_ring, cx, cy, watch, strip, segment, lane);
}

/// The rectangle of interior warps: strip_inside and segment_inside each hold on an interval, as a
/// strip's columns and a segment's rows grow with its index.
template <int V>
void find_interior_warps(StreamGeometry& g) {
  g.inner_strip0 = g.inner_strips = g.inner_segment0 = g.inner_segments = 0;
  for (int strip = 0; strip < g.strips; ++strip)
    if (strip_inside<V>(g, strip)) {
      if (g.inner_strips == 0) g.inner_strip0 = strip;
      ++g.inner_strips;
    }
  for (int segment = 0; segment < g.segments; ++segment)
    if (segment_inside(g, segment)) {
      if (g.inner_segments == 0) g.inner_segment0 = segment;
      ++g.inner_segments;
    }
  if (g.inner_strips == 0 || g.inner_segments == 0) g.inner_strips = g.inner_segments = 0;
}

/// The stream and events on which a launch runs its general kernel beside the interior one: one
/// set per device, made on first use and kept for the life of the process (as the streams they
/// would be destroyed on may be gone at exit).
struct SideStream {
  mesh::Stream stream;
  mesh::Event fork, join;
};

SideStream& side_stream(std::unique_lock<std::mutex>& lock) {
  static std::mutex mutex;
  static auto* sides = new std::map<int, std::unique_ptr<SideStream>>();
  int device = 0;
  GRIDFLOW_CUDA_CHECK(cudaGetDevice(&device));
  lock = std::unique_lock<std::mutex>(mutex);
  auto& side = (*sides)[device];
  if (!side) side = std::make_unique<SideStream>();
  return *side;
}

// The two kernels write disjoint outputs from the same input, so the general one runs on a side
// stream beside the interior one: in one stream, the few warps of the edges would run alone after
// the interior ones (a longer segment, a longer tail: float 1261 -> 1221 Gcell/s at 256 rows).
template <class T, int KMAX, int V>
void launch(const T* src, T* dst, long long pitch, StreamGeometry g, const HeatRingView<T>& ring, T cx, T cy,
            const core::NonFiniteWatch& watch, StreamHandle stream) {
  find_interior_warps<V>(g);
  const auto blocks_of = [](long long warps) {
    return static_cast<unsigned>((warps + warps_per_block - 1) / warps_per_block);
  };
  const long long all = static_cast<long long>(g.strips) * g.segments;
  const long long inner = static_cast<long long>(g.inner_strips) * g.inner_segments;
  const bool exact = g.steps == KMAX;
  const auto general = [&](StreamHandle on) {
    const auto kernel = exact ? heat_stream_kernel<T, KMAX, V, true> : heat_stream_kernel<T, KMAX, V, false>;
    kernel<<<blocks_of(all), warp_size * warps_per_block, 0, on>>>(src, dst, pitch, g, ring, cx, cy, watch);
  };
  if (inner == 0) return general(stream);
  const auto interior = [&] {
    const auto kernel =
        exact ? heat_stream_interior_kernel<T, KMAX, V, true> : heat_stream_interior_kernel<T, KMAX, V, false>;
    kernel<<<blocks_of(inner), warp_size * warps_per_block, 0, stream>>>(src, dst, pitch, g, cx, cy, watch);
  };
  if (inner == all) return interior();
  std::unique_lock<std::mutex> lock;
  SideStream& side = side_stream(lock);
  side.fork.record(stream);
  side.fork.make_wait(side.stream.get());
  general(side.stream.get());
  interior();
  side.join.record(side.stream.get());
  side.join.make_wait(stream);
}

/// The smallest instantiated level count that holds `steps`, for V values of T a lane.
template <class T, int V>
void launch_levels(const T* src, T* dst, long long pitch, const StreamGeometry& g, const HeatRingView<T>& ring, T cx,
                   T cy, const core::NonFiniteWatch& watch, StreamHandle stream) {
  if (g.steps <= 2) return launch<T, 2, V>(src, dst, pitch, g, ring, cx, cy, watch, stream);
  if (g.steps <= 4) return launch<T, 4, V>(src, dst, pitch, g, ring, cx, cy, watch, stream);
  if (g.steps <= 8) return launch<T, 8, V>(src, dst, pitch, g, ring, cx, cy, watch, stream);
  if constexpr (V * sizeof(T) <= 8) return launch<T, 16, V>(src, dst, pitch, g, ring, cx, cy, watch, stream);
}

}  // namespace

template <class T>
void launch_heat_stream_cuda(const HeatCudaParams& params, mesh::FieldView<const T, 2> in, mesh::FieldView<T, 2> out,
                             const mesh::Box<2>& update, const mesh::Box<2>& active, int steps, T cx, T cy,
                             const HeatRing<T>& ring, StreamHandle stream, const core::NonFiniteWatch& watch) {
  GRIDFLOW_REQUIRE(params.valid() && params.stream_cells_x > 0 && steps >= 1, "invalid heat streaming parameters");
  if (!params.fits_shared_memory(steps, sizeof(T)))
    throw Error("heat kernel: the streaming kernel with " + std::to_string(params.stream_cells_x) +
                " cells a lane takes at most " + std::to_string(sizeof(T) == 4 ? 16 : 8) + " steps a launch, not " +
                std::to_string(steps));
  if (update.empty()) return;
  const int V = params.stream_cells_x;
  const auto lo = update.lo;
  const T* src = in.data + in.offset(lo[0], lo[1]);
  T* dst = out.data + out.offset(lo[0], lo[1]);
  const auto misaligned = [V](const void* p) {
    return static_cast<int>(reinterpret_cast<std::uintptr_t>(p) / sizeof(T) % static_cast<std::uintptr_t>(V));
  };
  GRIDFLOW_REQUIRE(in.stride[1] % V == 0 && out.stride[1] == in.stride[1] && misaligned(src) == misaligned(dst) &&
                       reinterpret_cast<std::uintptr_t>(src) % sizeof(T) == 0,
                   "heat streaming kernel needs two fields of one layout with aligned rows");
  StreamGeometry g{};
  static_cast<FusedBoxes&>(g) = fused_boxes(update, active, steps);
  g.halo = (steps + V - 1) / V * V;
  g.shift = misaligned(src);
  const int columns = strip_columns(g, V);
  g.strips = (g.nx + g.shift + columns - 1) / columns;
  g.segment_rows = params.segment_rows;
  g.segments = (g.ny + g.segment_rows - 1) / g.segment_rows;
  const HeatRingView<T> view = fused_ring_view(ring, update, active, steps);
  const long long pitch = in.stride[1];
  switch (V) {
    case 2: launch_levels<T, 2>(src, dst, pitch, g, view, cx, cy, watch, stream); break;
    case 4: launch_levels<T, 4>(src, dst, pitch, g, view, cx, cy, watch, stream); break;
    case 8:
      if constexpr (sizeof(T) == 4) launch_levels<T, 8>(src, dst, pitch, g, view, cx, cy, watch, stream);
      break;
  }
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
}

template void launch_heat_stream_cuda<float>(const HeatCudaParams&, mesh::FieldView<const float, 2>,
                                             mesh::FieldView<float, 2>, const mesh::Box<2>&, const mesh::Box<2>&, int,
                                             float, float, const HeatRing<float>&, StreamHandle,
                                             const core::NonFiniteWatch&);
template void launch_heat_stream_cuda<double>(const HeatCudaParams&, mesh::FieldView<const double, 2>,
                                              mesh::FieldView<double, 2>, const mesh::Box<2>&, const mesh::Box<2>&, int,
                                              double, double, const HeatRing<double>&, StreamHandle,
                                              const core::NonFiniteWatch&);

}  // namespace gridflow::kernels::stencil
