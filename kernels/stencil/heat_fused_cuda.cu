// Temporal blocking of the heat stencil: one launch takes K steps. A block loads a tile of its
// output points grown by K on each side into shared memory, steps it K times there (step s is
// valid on the tile shrunk by s: the rim is recomputed by the neighbouring blocks, not exchanged),
// and writes its output points once. Each thread owns one column of the tile, so every warp has
// the same work in every step (a tile wider than the block left a few lanes a second pass that
// the whole block waited for at each barrier). Every point is computed by heat_point from the
// same values a chain of single steps would use, so the result is the chain's, bit for bit.
#include <cuda_runtime.h>

#include <string>

#include "kernels/stencil/heat_cuda.hpp"
#include "kernels/stencil/heat_fused_boxes.hpp"
#include "kernels/stencil/heat_point.hpp"
#include "mesh/check.hpp"

namespace gridflow::kernels::stencil {

namespace {

/// One launch's boxes, and its blocks' rows.
struct FusedGeometry : FusedBoxes {
  int rows;  ///< output rows per block: block_y * cells_per_thread
};

/// Loads the block's tile from `in` into `now` and steps it K times; returns the buffer holding the
/// last step. With Watch, also records the first non-finite value each thread writes at each step
/// where it is one of the run's values: step s is exact on the update box grown by K - s (the rest
/// of the tile may have read the zeros outside `in`'s readable points), and inactive points only
/// keep their value, or take the ring's at steps 1..K-1 when it has values. Every thread of the
/// block calls it (it synchronises).
template <bool Watch, class T>
__device__ __forceinline__ T* step_tile(const T* __restrict__ in, long long pitch, const FusedGeometry& g,
                                        const HeatRingView<T>& ring, T cx, T cy, const core::NonFiniteWatch& watch,
                                        T* now, T* next) {
  const int K = g.steps;
  const int W = blockDim.x, H = g.rows + 2 * K;
  const int x0 = blockIdx.x * (W - 2 * K) - K;  // tile origin, relative to the update box
  const int y0 = blockIdx.y * g.rows - K;
  const int c = threadIdx.x;  // this thread's column
  const int x = x0 + c;

  // Points that cannot reach an output point are never read (they may lie outside the field);
  // they hold 0 and stay out of every output point's dependence cone.
  const bool column_readable = x >= g.rx0 && x <= g.rx1;
  for (int r = threadIdx.y; r < H; r += blockDim.y) {
    const int y = y0 + r;
    now[r * W + c] = column_readable && y >= g.ry0 && y <= g.ry1 ? __ldg(in + y * pitch + x) : T(0);
  }
  __syncthreads();

  for (int s = 1; s <= K; ++s) {
    // Step s on rows and columns [s, extent - s); each thread walks a run of rows of its column,
    // keeping the points above and below in registers.
    const int run = (H - 2 * s + blockDim.y - 1) / blockDim.y;
    const int r0 = s + threadIdx.y * run, r1 = min(r0 + run, H - s);
    if (c >= s && c < W - s && r0 < r1) {
      const bool column_active = x >= g.ax0 && x <= g.ax1;
      const bool column_exact = x >= s - K && x < g.nx + K - s;
      bool recorded = false;
      T below = now[(r0 - 1) * W + c], centre = now[r0 * W + c];
      for (int r = r0; r < r1; ++r) {
        const T above = now[(r + 1) * W + c];
        const int y = y0 + r;
        const bool active = column_active && y >= g.ay0 && y <= g.ay1;
        T value = active ? heat_point(centre, now[r * W + c - 1], now[r * W + c + 1], below, above, cx, cy) : centre;
        if (ring.values && !active && s < K) value = ring.at(s, x, y, value);
        next[r * W + c] = value;
        if (Watch && !recorded && active && column_exact && y >= s - K && y < g.ny + K - s && !core::finite_value(value)) {
          core::record_non_finite(watch.slot, watch.key(watch.step + s - 1, g.i0 + x, g.j0 + y));
          recorded = true;  // later rows of the run have higher keys
        }
        below = centre;
        centre = above;
      }
    }
    __syncthreads();
    T* t = now;
    now = next;
    next = t;
  }
  return now;
}

// A non-finite value stays non-finite at its point (NaN, or infinity that the next step turns into
// NaN) and spreads one point a step, so one that appears at step s within the update box grown by
// K - s reaches a written point of the block whose tile holds it by step K. The fast path checks
// only the values it writes, once a launch; a block that wrote one steps its tile again from `in`
// with a check at every value, which finds the first step and point (the values are the same).
template <class T>
__global__ void heat_fused_kernel(const T* __restrict__ in, T* __restrict__ out, long long pitch, FusedGeometry g,
                                  HeatRingView<T> ring, T cx, T cy, core::NonFiniteWatch watch) {
  extern __shared__ unsigned char shared_bytes[];
  const int K = g.steps;
  const int W = blockDim.x, H = g.rows + 2 * K;
  T* const tile_a = reinterpret_cast<T*>(shared_bytes);
  T* const tile_b = tile_a + W * H;
  const T* last = step_tile<false>(in, pitch, g, ring, cx, cy, watch, tile_a, tile_b);

  const int c = threadIdx.x;
  const int x = blockIdx.x * (W - 2 * K) - K + c;
  const int y0 = blockIdx.y * g.rows - K;
  bool non_finite = false;
  if (c >= K && c < W - K && x < g.nx)
    for (int r = threadIdx.y; r < g.rows; r += blockDim.y) {
      const int y = y0 + K + r;
      if (y >= g.ny) break;
      const T value = last[(r + K) * W + c];
      out[y * pitch + x] = value;
      non_finite |= !core::finite_value(value);
    }
  if (__syncthreads_or(non_finite) && watch.slot) step_tile<true>(in, pitch, g, ring, cx, cy, watch, tile_a, tile_b);
}

}  // namespace

template <class T>
void launch_heat_fused_cuda(const HeatCudaParams& params, mesh::FieldView<const T, 2> in, mesh::FieldView<T, 2> out,
                            const mesh::Box<2>& update, const mesh::Box<2>& active, int steps, T cx, T cy,
                            const HeatRing<T>& ring, StreamHandle stream, const core::NonFiniteWatch& watch) {
  GRIDFLOW_REQUIRE(params.valid() && steps >= 1, "invalid heat CUDA parameters");
  if (params.block_x <= 2 * steps)
    throw Error("heat kernel: " + std::to_string(steps) + " fused steps need blocks wider than " +
                std::to_string(2 * steps) + " threads in x (their rims), not " + std::to_string(params.block_x));
  if (update.empty()) return;
  const std::size_t shared = params.fused_shared_bytes(steps, sizeof(T));
  if (shared > HeatCudaParams::max_shared_bytes)
    throw Error("heat kernel: " + std::to_string(steps) + " fused steps with a " + std::to_string(params.block_x) + "x" +
                std::to_string(params.block_y * params.cells_per_thread) + " tile cannot launch: it needs " +
                std::to_string(shared) + " bytes of shared memory, more than " +
                std::to_string(HeatCudaParams::max_shared_bytes));
  const auto lo = update.lo;
  FusedGeometry g{};
  static_cast<FusedBoxes&>(g) = fused_boxes(update, active, steps);
  g.rows = params.block_y * params.cells_per_thread;
  const HeatRingView<T> view = fused_ring_view(ring, update, active, steps);
  const T* src = in.data + in.offset(lo[0], lo[1]);
  T* dst = out.data + out.offset(lo[0], lo[1]);
  const dim3 block(params.block_x, params.block_y);
  const int columns = params.block_x - 2 * steps;  // output columns per block
  const dim3 grid((g.nx + columns - 1) / columns, (g.ny + g.rows - 1) / g.rows);
  heat_fused_kernel<T><<<grid, block, shared, stream>>>(src, dst, in.stride[1], g, view, cx, cy, watch);
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
}

template void launch_heat_fused_cuda<float>(const HeatCudaParams&, mesh::FieldView<const float, 2>,
                                            mesh::FieldView<float, 2>, const mesh::Box<2>&, const mesh::Box<2>&, int,
                                            float, float, const HeatRing<float>&, StreamHandle, const core::NonFiniteWatch&);
template void launch_heat_fused_cuda<double>(const HeatCudaParams&, mesh::FieldView<const double, 2>,
                                             mesh::FieldView<double, 2>, const mesh::Box<2>&, const mesh::Box<2>&, int,
                                             double, double, const HeatRing<double>&, StreamHandle, const core::NonFiniteWatch&);

}  // namespace gridflow::kernels::stencil
