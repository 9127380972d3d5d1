// The CUDA whitening variant: three launches per frame, no host round trip (whiten_cuda.hpp).
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <limits>
#include <type_traits>
#include <sstream>

#include "kernels/filter/whiten_cuda.hpp"
#include "kernels/filter/whiten_point.hpp"
#include "mesh/check.hpp"

namespace gridflow::kernels::filter {

namespace {

namespace cg = cooperative_groups;

constexpr int strip = 8;               // rows one thread walks down a column, the 4 row interpolations
                                       // of a sample sliding along in registers
constexpr int gram_threads = 256;      // threads of the correlation kernel (8 warps)

__device__ inline double warp_sum(double v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

// The `strip` samples from their (strip + 3) x 4 taps: each row interpolated in x once, then the
// 4 rows of every sample in y (whiten_sample's T operations in its order).
template <class T>
__device__ __forceinline__ void interpolate_strip(const T (&taps)[strip + 3][4], const WhitenStencil<T>& s, T* out) {
  T h[strip + 3];
#pragma unroll
  for (int i = 0; i < strip + 3; ++i) h[i] = s.wx[0] * taps[i][0] + s.wx[1] * taps[i][1] + s.wx[2] * taps[i][2] + s.wx[3] * taps[i][3];
#pragma unroll
  for (int l = 0; l < strip; ++l) {
    T v = 0;
    v += s.wy[0] * h[l];
    v += s.wy[1] * h[l + 1];
    v += s.wy[2] * h[l + 2];
    v += s.wy[3] * h[l + 3];
    out[l] = v;
  }
}

// The `strip` samples of one frame down column x from row y0: the row interpolations of
// whiten_sample (same T operations in the same order, so the values equal the host's bit for bit),
// each shared by the 4 samples that use it, and every tap loaded first through the read-only path:
// 4 (strip + 3) independent loads in flight per thread instead of a chain of rows.
template <class T>
__device__ inline void column_strip(const T* __restrict__ f, int ny, int nx, const WhitenStencil<T>& s, int y0, int x, T* out) {
  int c[4];
#pragma unroll
  for (int j = 0; j < 4; ++j) c[j] = whiten_clamp(x + s.ox - 1 + j, nx);
  T taps[strip + 3][4];
#pragma unroll
  for (int i = 0; i < strip + 3; ++i) {
    const T* p = f + static_cast<std::ptrdiff_t>(whiten_clamp(y0 + s.oy - 1 + i, ny)) * nx;
#pragma unroll
    for (int j = 0; j < 4; ++j) taps[i][j] = __ldg(p + c[j]);
  }
  interpolate_strip(taps, s, out);
}

// column_strip where every tap of the strip lies in the frame (column_strip_inside says so): the
// same taps and operations, without the clamps, from one base address with constant offsets.
template <class T>
__device__ inline bool column_strip_inside(int ny, int nx, const WhitenStencil<T>& s, int y0, int x) {
  return x + s.ox - 1 >= 0 && x + s.ox + 2 <= nx - 1 && y0 + s.oy - 1 >= 0 && y0 + strip + s.oy + 1 <= ny - 1;
}

template <class T>
__device__ inline void column_strip_interior(const T* __restrict__ f, int nx, const WhitenStencil<T>& s, int y0, int x, T* out) {
  const T* p = f + static_cast<std::ptrdiff_t>(y0 + s.oy - 1) * nx + (x + s.ox - 1);
  T taps[strip + 3][4];
#pragma unroll
  for (int i = 0; i < strip + 3; ++i) {
#pragma unroll
    for (int j = 0; j < 4; ++j) taps[i][j] = __ldg(p + j);
    p += nx;
  }
  interpolate_strip(taps, s, out);
}

// column_strip's samples where no tap needs clamping (the pixels a shift pass counts, see
// whiten_margin): the same T operations in the same order, from one pointer and three rows, so a
// block keeps several frames' samplers in few registers.
template <class T>
struct InteriorSampler {
  const T* next;  // the first tap of the row the next h3 comes from
  T h0, h1, h2;

  __device__ static T row(const T* p, const WhitenStencil<T>& s) {
    return s.wx[0] * __ldg(p) + s.wx[1] * __ldg(p + 1) + s.wx[2] * __ldg(p + 2) + s.wx[3] * __ldg(p + 3);
  }
  /// Starts at output row y of column x.
  __device__ void start(const T* f, int nx, const WhitenStencil<T>& s, int y, int x) {
    const T* p = f + static_cast<std::ptrdiff_t>(y + s.oy - 1) * nx + (x + s.ox - 1);
    h0 = row(p, s);
    h1 = row(p + nx, s);
    h2 = row(p + 2 * nx, s);
    next = p + 3 * nx;
  }
  /// The sample at the current row; moves one row down.
  __device__ T sample(int nx, const WhitenStencil<T>& s) {
    const T h3 = row(next, s);
    next += nx;
    T v = 0;
    v += s.wy[0] * h0;
    v += s.wy[1] * h1;
    v += s.wy[2] * h2;
    v += s.wy[3] * h3;
    h0 = h1;
    h1 = h2;
    h2 = h3;
    return v;
  }
};

// A pass walks the counted pixels in tiles of 32 columns by TR rows, the tiles dealt round the
// blocks. Per tile, the block first puts F's terms g, h, r of the tile's pixels in shared memory
// (once for all frames: the gradient is the same for every frame of the pass), then its 8 warps
// take the tasks (frame k, segment of rows) of the tile, lane = column, each warp always the same
// tasks (t = warp + 8 j), so a task's sums stay in the registers of one warp over all its tiles.
// With fewer frames than warps (the pilot's one frame) a frame's rows are split in segments, so
// every warp has work. After the tiles, the block adds its sums (u, v, w, then p_k, q_k; segments
// in order) into its slot; after a barrier, block i adds sum i over the slots in slot order into
// `totals`; after a second barrier every block reads the totals. Pilot passes (frame 1 alone)
// come first when m > 1.
constexpr int shift_threads = 256;
constexpr int shift_warps = shift_threads / 32;
constexpr int shift_tile_x = 32;
constexpr int shift_tasks_per_warp = max_whiten_memory / shift_warps;  // tasks <= max(N, warps)
constexpr int shift_slot = whiten_cuda_shift_slot;
static_assert(shift_slot >= 3 + 2 * max_whiten_memory, "a block's sums fit its slot");

// Sum of v over the block, the same order every run; every thread calls it, thread 0 gets it.
__device__ inline double block_sum(double v, double* s_warps) {
  v = warp_sum(v);
  if (threadIdx.x % 32 == 0) s_warps[threadIdx.x / 32] = v;
  __syncthreads();
  double total = 0.0;
  if (threadIdx.x == 0)
    for (int w = 0; w < static_cast<int>(blockDim.x / 32); ++w) total += s_warps[w];
  __syncthreads();
  return total;
}

template <class T, int TR>
__global__ void __launch_bounds__(shift_threads, 2)
    shift_passes_kernel(WhitenFrame<T> job, double tolerance, int max_passes, double* totals, double* slots, double* pilot_slots) {
  cg::grid_group grid = cg::this_grid();
  __shared__ double s_g[TR][shift_tile_x], s_h[TR][shift_tile_x], s_r[TR][shift_tile_x];
  __shared__ double s_shift[2 * max_whiten_memory];
  __shared__ double s_task[max_whiten_memory][2];
  __shared__ double s_tot[3 + 2 * max_whiten_memory];
  __shared__ double s_uvw[shift_warps][3];
  __shared__ double s_warps[shift_warps];
  __shared__ WhitenStencil<T> s_stencil[max_whiten_memory];
  __shared__ const T* s_frames[max_whiten_memory];  // the pointer table, indexed at run time
  __shared__ int s_margin, s_more;
  const int m = job.m, ny = job.ny, nx = job.nx, tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const double* S = job.history;
  const long long t = job.t;
  for (int k = tid; k < m; k += blockDim.x) {
    s_frames[k] = job.remembered[k];
    s_shift[2 * k] = S[2 * (t - 1 - k)] - S[2 * (t - 1)];
    s_shift[2 * k + 1] = S[2 * (t - 1 - k) + 1] - S[2 * (t - 1) + 1];
  }
  bool pilot = m > 1;
  int pilot_passes = 0, full_passes = 0;
  for (;;) {
    const int active = pilot ? 1 : m;
    int nseg = 1;  // row segments per frame: every warp busy when frames are few
    while (nseg * 2 * active <= shift_warps && nseg * 2 <= TR / 2) nseg *= 2;
    const int rs = TR / nseg, tasks = active * nseg;
    __syncthreads();
    if (tid == 0) {
      double max_abs = 0.0;
      for (int i = 0; i < 2 * active; ++i) max_abs = fmax(max_abs, fabs(s_shift[i]));
      s_margin = whiten_margin(max_abs);
      s_more = 0;
    }
    for (int k = tid; k < active; k += blockDim.x) s_stencil[k] = whiten_stencil<T>(s_shift[2 * k], s_shift[2 * k + 1]);
    __syncthreads();
    const int margin = s_margin;
    const int xhi = nx - 1 - margin, yhi = ny - 1 - margin;
    const int wx = xhi - margin + 1, wy = yhi - margin + 1;
    const int tiles_x = wx > 0 ? (wx + shift_tile_x - 1) / shift_tile_x : 0;
    const int tiles = wy > 0 ? tiles_x * ((wy + TR - 1) / TR) : 0;
    double u = 0.0, v = 0.0, w = 0.0;
    double ap[shift_tasks_per_warp], aq[shift_tasks_per_warp];
#pragma unroll
    for (int j = 0; j < shift_tasks_per_warp; ++j) ap[j] = aq[j] = 0.0;
    for (int ti = blockIdx.x; ti < tiles; ti += gridDim.x) {
      const int x0 = margin + (ti % tiles_x) * shift_tile_x, y0 = margin + (ti / tiles_x) * TR;
      for (int p = tid; p < TR * shift_tile_x; p += shift_threads) {
        const int l = p / shift_tile_x, c = p % shift_tile_x, y = y0 + l, x = x0 + c;
        double g = 0.0, h = 0.0, r = 0.0;
        if (y <= yhi && x <= xhi) {
          const WhitenGradient d = whiten_gradient(job.frame, job.frame_pitch, y, x);
          g = d.g;
          h = d.h;
          r = d.r;
          u += h * h;
          v += h * g;
          w += g * g;
        }
        s_g[l][c] = g;
        s_h[l][c] = h;
        s_r[l][c] = r;
      }
      __syncthreads();
      const int x = x0 + lane, rows_valid = min(TR, yhi - y0 + 1);
#pragma unroll
      for (int j = 0; j < shift_tasks_per_warp; ++j) {
        const int task = warp + j * shift_warps;
        if (task < tasks) {  // the same for the whole warp
          const int k = task / nseg, ys = (task % nseg) * rs;
          const int rows = min(rs, rows_valid - ys);
          if (x <= xhi && rows > 0) {
            const WhitenStencil<T> st = s_stencil[k];
            InteriorSampler<T> cs;
            cs.start(s_frames[k], nx, st, y0 + ys, x);
            double p = 0.0, q = 0.0;
#pragma unroll 4
            for (int l = 0; l < rows; ++l) {
              const double diff = static_cast<double>(cs.sample(nx, st)) - s_r[ys + l][lane];
              p += s_g[ys + l][lane] * diff;
              q += s_h[ys + l][lane] * diff;
            }
            ap[j] += p;
            aq[j] += q;
          }
        }
      }
      __syncthreads();
    }
    // The block's sums: u, v, w over its threads, each task's p, q over its warp.
    u = warp_sum(u);
    v = warp_sum(v);
    w = warp_sum(w);
    if (lane == 0) {
      s_uvw[warp][0] = u;
      s_uvw[warp][1] = v;
      s_uvw[warp][2] = w;
    }
#pragma unroll
    for (int j = 0; j < shift_tasks_per_warp; ++j) {
      const int task = warp + j * shift_warps;
      if (task < tasks) {
        const double p = warp_sum(ap[j]), q = warp_sum(aq[j]);
        if (lane == 0) {
          s_task[task][0] = p;
          s_task[task][1] = q;
        }
      }
    }
    __syncthreads();
    // A pilot pass's five sums go to one of two small slot sets (by pass parity: a block can run
    // at most one pass ahead of the slowest), and after one barrier every block adds them itself in
    // the same order; a pass over all frames takes the two-barrier way (its 3 + 2m sums would cost
    // every block a read of all slots).
    const int sums = 3 + 2 * active;
    const int slot_size = pilot ? 5 : shift_slot;
    double* pass_slots = pilot ? pilot_slots + static_cast<std::size_t>(pilot_passes % 2) * gridDim.x * 5 : slots;
    for (int i = tid; i < sums; i += blockDim.x) {
      double s = 0.0;
      if (i < 3) {
        for (int ww = 0; ww < shift_warps; ++ww) s += s_uvw[ww][i];
      } else {
        const int k = (i - 3) / 2, c = (i - 3) % 2;
        for (int seg = 0; seg < nseg; ++seg) s += s_task[k * nseg + seg][c];
      }
      pass_slots[static_cast<std::size_t>(blockIdx.x) * slot_size + i] = s;
    }
    grid.sync();
    if (pilot) {
      for (int i = 0; i < sums; ++i) {
        double s = 0.0;
        for (int b = tid; b < static_cast<int>(gridDim.x); b += blockDim.x) s += __ldcg(&pass_slots[static_cast<std::size_t>(b) * slot_size + i]);
        s = block_sum(s, s_warps);
        if (tid == 0) s_tot[i] = s;
      }
    } else {
      for (int i = blockIdx.x; i < sums; i += gridDim.x) {  // the same i for the whole block
        double s = 0.0;
        for (int b = tid; b < static_cast<int>(gridDim.x); b += blockDim.x) s += __ldcg(&slots[static_cast<std::size_t>(b) * shift_slot + i]);
        s = block_sum(s, s_warps);
        if (tid == 0) totals[i] = s;
      }
      grid.sync();
      for (int i = tid; i < sums; i += blockDim.x) s_tot[i] = __ldcg(totals + i);
    }
    __syncthreads();
    // Every block applies the same updates to the same totals.
    for (int k = tid; k < active; k += blockDim.x) {
      WhitenShiftSums ss;
      ss.u = s_tot[0];
      ss.v = s_tot[1];
      ss.w = s_tot[2];
      ss.p = s_tot[3 + 2 * k];
      ss.q = s_tot[4 + 2 * k];
      double dy, dx;
      whiten_shift_update(ss, dy, dx);
      s_shift[2 * k] += dy;
      s_shift[2 * k + 1] += dx;
      const double stop = pilot ? whiten_pilot_tolerance_factor * tolerance : tolerance;
      if (fabs(dy) >= stop || fabs(dx) >= stop) s_more = 1;
    }
    __syncthreads();
    if (pilot) {
      ++pilot_passes;
      if (!s_more || pilot_passes >= max_passes) {
        pilot = false;
        for (int k = 1 + tid; k < m; k += blockDim.x)
          for (int a = 0; a < 2; ++a) s_shift[2 * k + a] = whiten_pilot_guess(S[2 * (t - 1 - k) + a], S[2 * (t - 1) + a], s_shift[a]);
      }
      continue;
    }
    ++full_passes;
    if (s_more && full_passes < max_passes) continue;
    if (blockIdx.x == 0) {
      for (int k = tid; k < 2 * m; k += blockDim.x) job.pair_shift[k] = s_shift[k];
      if (tid == 0) {
        double sy = 0.0, sx = 0.0;
        for (int k = 0; k < m; ++k) {
          sy += S[2 * (t - 1 - k)] - s_shift[2 * k];
          sx += S[2 * (t - 1 - k) + 1] - s_shift[2 * k + 1];
        }
        job.history[2 * t] = sy / m;
        job.history[2 * t + 1] = sx / m;
        job.refinements[t] = full_passes;
      }
    }
    return;
  }
}
// Doubles of shared memory the last block's solve needs for m frames (and J terms).
__host__ __device__ inline int solve_doubles(int m, int terms, bool aligned) {
  if (aligned) return m * (m + 1);                                         // [G | b]
  return m * (m + 1) / 2 + m + 2 * m * terms + terms * (terms + 1);  // G (lower, packed), b, Phi, G Phi, [Gp | bp]
}

// Solves the n x (n+1) augmented system [A | b] in shared memory by Gauss-Jordan without pivoting
// (A symmetric positive definite with the ridge); x_j = A[j][n] / A[j][j] on return. Every thread of
// the block calls it. Returns false where a pivot is not positive (x must then be taken as 0).
__device__ bool gauss_jordan(double* a, int n, double ridge) {
  __shared__ double s_shift;
  __shared__ int s_ok;
  const int cols = n + 1;
  if (threadIdx.x == 0) {
    double trace = 0.0;
    for (int i = 0; i < n; ++i) trace += a[i * cols + i];
    s_shift = ridge * trace / n;
    s_ok = 1;
  }
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x) a[i * cols + i] += s_shift;
  __syncthreads();
  for (int j = 0; j < n; ++j) {
    const double piv = a[j * cols + j];
    if (!(piv > 0.0)) {
      if (threadIdx.x == 0) s_ok = 0;
      break;  // every thread reads the same pivot: all leave together
    }
    const double inv = 1.0 / piv;
    const int width = n - j;  // columns j+1 .. n
    // Row j and column j are only read in this step; the entries written are in other rows and
    // later columns, so one barrier per step suffices.
    for (int e = threadIdx.x; e < (n - 1) * width; e += blockDim.x) {
      int i = e / width;
      if (i >= j) ++i;
      const int c = j + 1 + e % width;
      a[i * cols + c] -= a[i * cols + j] * inv * a[j * cols + c];
    }
    __syncthreads();
  }
  __syncthreads();
  return s_ok != 0;
}

// The correlations of the m basis frames and F (index m), entries k >= l, over shared-memory tiles
// of tile_x columns by `strip` rows: the block stages the n = m + 1 aligned values of its tile's
// pixels in double (one conversion per value), then its warps multiply them on the FP64 tensor
// cores: G = V V^T with V the n x pixels values, in 8 x 8 blocks (I >= J) of mma.m8n8k4, four
// pixels per step; a warp's fragment of block I serves as A and as B (the two layouts index V
// alike). The blocks (I, J) are dealt in sets of gram_set to the warps, the warps of one set
// splitting the tile's pixels. Each block writes its sums to its slot (pair-major: entry e of
// block b at slots[b * pairs + e], e = k (k + 1) / 2 + l); the last block of each group of
// whiten_cuda_gram_group blocks adds the group's slots in block order into the group's slot, and
// the last group to finish adds the groups in order into `gram` and solves for the weights.
constexpr int gram_warps = gram_threads / 32;
constexpr int gram_set = 6;  // 8 x 8 blocks per warp: 12 accumulators; n <= 24 is one set
static_assert(((max_whiten_memory + 1 + 7) / 8) * ((max_whiten_memory + 1 + 7) / 8 + 1) / 2 <= gram_set * gram_warps,
              "every 8 x 8 block of the largest memory has a warp");

__device__ inline void dmma_884(double& c0, double& c1, double a, double b) {
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};\n" : "+d"(c0), "+d"(c1) : "d"(a), "d"(b));
}

// Row stride (doubles) of the staged values: a multiple of 16 plus 4, so the 16 lanes of a
// half-warp (4 rows by 4 pixels) fall in distinct banks.
__host__ __device__ inline int gram_stride(int tile) { return tile + 4; }

template <class T>
__global__ void __launch_bounds__(gram_threads) gram_kernel(WhitenFrame<T> job, bool aligned, int degree, double ridge, int tile_x,
                                                            double* gram, double* slots, double* group_slots, unsigned* counters) {
  extern __shared__ double smem[];
  __shared__ WhitenStencil<T> s_stencil[max_whiten_memory];
  __shared__ const T* s_frames[max_whiten_memory];
  __shared__ int s_last;
  const int m = job.m, n = m + 1, ny = job.ny, nx = job.nx, tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const int tile = tile_x * strip, stride = gram_stride(tile);
  const int pairs = n * (n + 1) / 2;
  double* s_tot = smem;         // pairs
  double* vals = smem + pairs;  // (n + 1) x stride, row n zero
  for (int k = tid; k < m; k += blockDim.x) s_frames[k] = job.remembered[k];
  if (aligned)
    for (int k = tid; k < m; k += blockDim.x) s_stencil[k] = whiten_stencil<T>(job.pair_shift[2 * k], job.pair_shift[2 * k + 1]);
  const int nb = (n + 7) / 8, nblocks = nb * (nb + 1) / 2, sets = (nblocks + gram_set - 1) / gram_set;
  const int per_set = gram_warps / sets, set = warp % sets, sub = warp / sets;
  int bi[gram_set], bj[gram_set];
  double c0[gram_set], c1[gram_set];
#pragma unroll
  for (int i = 0; i < gram_set; ++i) {
    const int b = set * gram_set + i;
    int I = 0;
    while ((I + 1) * (I + 2) / 2 <= b) ++I;
    bi[i] = I;
    bj[i] = b - I * (I + 1) / 2;
    c0[i] = c1[i] = 0.0;
  }
  // Fragment rows past n read row n, kept zero: no test per load.
  const int frag_row = lane >> 2, frag_col = lane & 3;
  int off_a[gram_set], off_b[gram_set];
#pragma unroll
  for (int i = 0; i < gram_set; ++i) {
    off_a[i] = min(8 * bi[i] + frag_row, n) * stride + frag_col;
    off_b[i] = min(8 * bj[i] + frag_row, n) * stride + frag_col;
  }
  for (int e = tid; e < stride; e += blockDim.x) vals[n * stride + e] = 0.0;
  __syncthreads();
  const int tiles_x = (nx + tile_x - 1) / tile_x, tiles_y = (ny + strip - 1) / strip;
  const long long tiles = static_cast<long long>(tiles_x) * tiles_y;
  for (long long ti = blockIdx.x; ti < tiles; ti += gridDim.x) {
    const int x0 = static_cast<int>(ti % tiles_x) * tile_x, y0 = static_cast<int>(ti / tiles_x) * strip;
    // One task per (frame, column): the column's `strip` values of that frame.
    for (int task = tid; task < n * tile_x; task += blockDim.x) {
      const int k = task / tile_x, cx = task % tile_x, x = x0 + cx;
      double* dst = vals + k * stride + cx;
      if (x >= nx) {
        for (int l = 0; l < strip; ++l) dst[l * tile_x] = 0.0;
        continue;
      }
      if (k == m || !aligned) {
        const T* src = k == m ? job.frame + x : s_frames[k] + x;
        const std::ptrdiff_t pitch = k == m ? job.frame_pitch : nx;
#pragma unroll
        for (int l = 0; l < strip; ++l) dst[l * tile_x] = y0 + l < ny ? static_cast<double>(src[(y0 + l) * pitch]) : 0.0;
      } else {
        T v[strip];
        const WhitenStencil<T> st = s_stencil[k];
        if (column_strip_inside(ny, nx, st, y0, x)) column_strip_interior(s_frames[k], nx, st, y0, x, v);
        else column_strip(s_frames[k], ny, nx, st, y0, x, v);
#pragma unroll
        for (int l = 0; l < strip; ++l) dst[l * tile_x] = y0 + l < ny ? static_cast<double>(v[l]) : 0.0;
      }
    }
    __syncthreads();
    if (sub < per_set)
      for (int q = sub; q < tile / 4; q += per_set) {
        const double* v = vals + 4 * q;
#pragma unroll
        for (int i = 0; i < gram_set; ++i)
          if (set * gram_set + i < nblocks)  // the same for the whole warp
            dmma_884(c0[i], c1[i], v[off_a[i]], v[off_b[i]]);
      }
    __syncthreads();
  }
  // The block's sums: the warps of each set add in turn (sub order), each entry from one set.
  for (int e = tid; e < pairs; e += blockDim.x) s_tot[e] = 0.0;
  __syncthreads();
  for (int s = 0; s < per_set; ++s) {
    if (sub == s)
#pragma unroll
      for (int i = 0; i < gram_set; ++i)
        if (set * gram_set + i < nblocks) {
          const int k = 8 * bi[i] + frag_row;
          const int l0 = 8 * bj[i] + 2 * frag_col;
          if (k < n && l0 < n && k >= l0) s_tot[k * (k + 1) / 2 + l0] += c0[i];
          if (k < n && l0 + 1 < n && k >= l0 + 1) s_tot[k * (k + 1) / 2 + l0 + 1] += c1[i];
        }
    __syncthreads();
  }
  for (int e = tid; e < pairs; e += blockDim.x) slots[static_cast<std::size_t>(blockIdx.x) * pairs + e] = s_tot[e];
  // The group's last block adds the group's slots, the last group's the groups' (block order).
  const int group = blockIdx.x / whiten_cuda_gram_group, groups = (gridDim.x + whiten_cuda_gram_group - 1) / whiten_cuda_gram_group;
  const int first = group * whiten_cuda_gram_group, members = min(whiten_cuda_gram_group, static_cast<int>(gridDim.x) - first);
  __threadfence();
  __syncthreads();
  if (tid == 0) s_last = atomicAdd(&counters[group], 1u) == static_cast<unsigned>(members - 1);
  __syncthreads();
  if (!s_last) return;
  __threadfence();
  for (int e = tid; e < pairs; e += blockDim.x) {
    double v = 0.0;
    for (int b = first; b < first + members; ++b) v += __ldcg(&slots[static_cast<std::size_t>(b) * pairs + e]);
    group_slots[static_cast<std::size_t>(group) * pairs + e] = v;
  }
  if (tid == 0) counters[group] = 0u;  // for the next frame
  __threadfence();
  __syncthreads();
  if (tid == 0) s_last = atomicAdd(&counters[whiten_cuda_max_gram_blocks / whiten_cuda_gram_group], 1u) == static_cast<unsigned>(groups - 1);
  __syncthreads();
  if (!s_last) return;
  __threadfence();
  for (int e = tid; e < pairs; e += blockDim.x) {
    double v = 0.0;
    for (int g = 0; g < groups; ++g) v += __ldcg(&group_slots[static_cast<std::size_t>(g) * pairs + e]);
    int k = static_cast<int>((sqrt(8.0 * e + 1.0) - 1.0) / 2.0);
    while (k * (k + 1) / 2 > e) --k;
    while ((k + 1) * (k + 2) / 2 <= e) ++k;
    gram[k * n + (e - k * (k + 1) / 2)] = v;
  }
  if (tid == 0) counters[whiten_cuda_max_gram_blocks / whiten_cuda_gram_group] = 0u;
  __syncthreads();

  // The last block: G (m x m, from the entries k >= l) and b_k = <B_k, F> (entry (m, k)).
  const int terms = whiten_polynomial_terms(degree);
  bool ok;
  if (aligned) {
    double* g = smem;
    for (int e = tid; e < m * m; e += blockDim.x) {
      const int i = e / m, c = e % m;
      g[i * (m + 1) + c] = __ldcg(&gram[(i >= c ? i * n + c : c * n + i)]);
    }
    for (int i = tid; i < m; i += blockDim.x) g[i * (m + 1) + m] = __ldcg(&gram[m * n + i]);
    __syncthreads();
    ok = gauss_jordan(g, m, ridge);
    for (int k = tid; k < m; k += blockDim.x) job.weights[k] = ok ? g[k * (m + 1) + m] / g[k * (m + 1) + k] : 0.0;
  } else {
    double* gm = smem;                   // lower triangle, packed: (i, c <= i) at i (i + 1) / 2 + c
    double* b = gm + m * (m + 1) / 2;    // m
    double* phi = b + m;                 // m x terms
    double* gphi = phi + m * terms;      // m x terms
    double* sys = gphi + m * terms;      // terms x (terms + 1)
    for (int e = tid; e < m * (m + 1) / 2; e += blockDim.x) {
      int i = static_cast<int>((sqrt(8.0 * e + 1.0) - 1.0) / 2.0);
      while (i * (i + 1) / 2 > e) --i;
      while ((i + 1) * (i + 2) / 2 <= e) ++i;
      gm[e] = __ldcg(&gram[i * n + (e - i * (i + 1) / 2)]);
    }
    for (int i = tid; i < m; i += blockDim.x) {
      b[i] = __ldcg(&gram[m * n + i]);
      whiten_monomials(job.pair_shift[2 * i], job.pair_shift[2 * i + 1], degree, phi + i * terms);
    }
    __syncthreads();
    for (int e = tid; e < m * terms; e += blockDim.x) {
      const int i = e / terms, c = e % terms;
      double s = 0.0;
      for (int l = 0; l < m; ++l) s += gm[i >= l ? i * (i + 1) / 2 + l : l * (l + 1) / 2 + i] * phi[l * terms + c];
      gphi[e] = s;
    }
    __syncthreads();
    for (int e = tid; e < terms * (terms + 1); e += blockDim.x) {
      const int i = e / (terms + 1), c = e % (terms + 1);
      double s = 0.0;
      if (c < terms)
        for (int k = 0; k < m; ++k) s += phi[k * terms + i] * gphi[k * terms + c];
      else
        for (int k = 0; k < m; ++k) s += phi[k * terms + i] * b[k];
      sys[e] = s;
    }
    __syncthreads();
    ok = gauss_jordan(sys, terms, ridge);
    for (int k = tid; k < m; k += blockDim.x) {
      double a = 0.0;
      for (int i = 0; i < terms; ++i) a += phi[k * terms + i] * sys[i * (terms + 1) + terms] / sys[i * (terms + 1) + i];
      job.weights[k] = ok ? a : 0.0;
    }
  }
}

// out = F - sum_k a_k B_k and the ring slot's copy of F. A block is 32 columns by `predict_groups`
// frame groups: thread (x, g) sums the frames k = g, g + G, ... down a strip of rows, and the
// groups' partial sums meet in shared memory; thread (x, g) then finishes rows g, g + G, ... of
// the strip. Frame 0 (m = 0) is copied.
constexpr int predict_groups = 4;
static_assert(strip % predict_groups == 0, "each group finishes whole rows of the strip");

template <class T>
__global__ void __launch_bounds__(32 * predict_groups) predict_kernel(WhitenFrame<T> job, bool aligned) {
  __shared__ WhitenStencil<T> s_stencil[max_whiten_memory];
  __shared__ double s_a[max_whiten_memory];
  __shared__ const T* s_frames[max_whiten_memory];
  __shared__ double s_part[predict_groups][strip][32];
  const int m = job.m, ny = job.ny, nx = job.nx;
  const int lane = threadIdx.x, g = threadIdx.y, tid = lane + 32 * g;
  for (int k = tid; k < m; k += 32 * predict_groups) {
    s_a[k] = job.weights[k];
    s_frames[k] = job.remembered[k];
    if (aligned) s_stencil[k] = whiten_stencil<T>(job.pair_shift[2 * k], job.pair_shift[2 * k + 1]);
  }
  if (m == 0 && blockIdx.x == 0 && tid == 0) {
    job.history[2 * job.t] = 0.0;
    job.history[2 * job.t + 1] = 0.0;
    job.refinements[job.t] = 0;
  }
  __syncthreads();
  const int col_blocks = (nx + 31) / 32, strips = (ny + strip - 1) / strip;
  const long long items = static_cast<long long>(col_blocks) * strips;
  for (long long i = blockIdx.x; i < items; i += gridDim.x) {
    const int x = static_cast<int>(i % col_blocks) * 32 + lane, y0 = static_cast<int>(i / col_blocks) * strip;
    const int rows = min(strip, ny - y0);
    double p[strip];
#pragma unroll
    for (int l = 0; l < strip; ++l) p[l] = 0.0;
    if (x < nx)
      for (int k = g; k < m; k += predict_groups) {
        const double a = s_a[k];
        if (aligned) {
          T v[strip];  // rows past the frame clamp to its last row: computed, not used
          const WhitenStencil<T> st = s_stencil[k];
          if (column_strip_inside(ny, nx, st, y0, x)) column_strip_interior(s_frames[k], nx, st, y0, x, v);
          else column_strip(s_frames[k], ny, nx, st, y0, x, v);
#pragma unroll
          for (int l = 0; l < strip; ++l) p[l] += a * static_cast<double>(v[l]);
        } else {
#pragma unroll
          for (int l = 0; l < strip; ++l)
            if (l < rows) p[l] += a * static_cast<double>(s_frames[k][static_cast<std::ptrdiff_t>(y0 + l) * nx + x]);
        }
      }
#pragma unroll
    for (int l = 0; l < strip; ++l) s_part[g][l][lane] = p[l];
    __syncthreads();
#pragma unroll
    for (int r = 0; r < strip / predict_groups; ++r) {
      const int l = g + r * predict_groups, y = y0 + l;
      if (x < nx && l < rows) {
        double sum = 0.0;
#pragma unroll
        for (int q = 0; q < predict_groups; ++q) sum += s_part[q][l][lane];
        const T f = job.frame[y * job.frame_pitch + x];
        job.store[static_cast<std::ptrdiff_t>(y) * nx + x] = f;
        job.out[y * job.out_pitch + x] = static_cast<T>(static_cast<double>(f) - sum);
      }
    }
    __syncthreads();
  }
}

// shift_chunk picks the rows of a shift tile: 2 -> 16, 4 -> 32.
template <class T>
const void* shift_kernel(int chunk) {
  return chunk == 4 ? reinterpret_cast<const void*>(&shift_passes_kernel<T, 32>) : reinterpret_cast<const void*>(&shift_passes_kernel<T, 16>);
}

// Most dynamic shared memory the correlation kernel asks for (opted in once per device).
constexpr std::size_t gram_dynamic_max = 160 * 1024;

// The launch shapes that depend only on the device and the tunables, found once per thread.
struct LaunchShape {
  int device = -1, threads = 0, blocks_per_sm = 0, shift_chunk = 0;
  int sms = 0, shift_blocks = 0;
  std::size_t gram_room = 0;  // dynamic shared memory the correlation kernel may use
};

template <class T>
const LaunchShape& launch_shape(const WhitenTunables& tunables) {
  thread_local LaunchShape shape;
  int device = 0;
  GRIDFLOW_CUDA_CHECK(cudaGetDevice(&device));
  if (shape.device == device && shape.threads == tunables.threads && shape.blocks_per_sm == tunables.blocks_per_sm &&
      shape.shift_chunk == tunables.shift_chunk)
    return shape;
  shape.device = device;
  shape.threads = tunables.threads;
  shape.blocks_per_sm = tunables.blocks_per_sm;
  shape.shift_chunk = tunables.shift_chunk;
  GRIDFLOW_CUDA_CHECK(cudaDeviceGetAttribute(&shape.sms, cudaDevAttrMultiProcessorCount, device));
  int per_sm = 0;
  GRIDFLOW_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, shift_kernel<T>(tunables.shift_chunk), shift_threads, 0));
  if (per_sm < 1) {
    std::ostringstream os;
    os << "whiten: the shift kernel cannot run " << tunables << " (no block fits on an SM)";
    throw Error(os.str());
  }
  // Co-resident (cooperative launch) and within the slots of the work buffer.
  shape.shift_blocks = std::min(std::min(per_sm, tunables.blocks_per_sm) * shape.sms, whiten_cuda_max_shift_blocks);
  cudaFuncAttributes attr{};
  GRIDFLOW_CUDA_CHECK(cudaFuncGetAttributes(&attr, gram_kernel<T>));
  int optin = 0;
  GRIDFLOW_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  const std::size_t usable = static_cast<std::size_t>(optin) > attr.sharedSizeBytes ? optin - attr.sharedSizeBytes : 0;
  shape.gram_room = std::min(usable, gram_dynamic_max);
  GRIDFLOW_CUDA_CHECK(cudaFuncSetAttribute(gram_kernel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shape.gram_room)));
  return shape;
}

}  // namespace

template <class T>
void launch_whiten_frame_cuda(const WhitenFrame<T>& job_in, const WhitenParams& params, const WhitenTunables& tunables, double* work,
                              unsigned* counters, StreamHandle stream) {
  WhitenFrame<T> job = job_in;
  const int n_mem = params.memory;
  const std::size_t pairs_max = static_cast<std::size_t>(n_mem + 1) * (n_mem + 2) / 2;
  job.weights = work;
  job.pair_shift = work + n_mem;
  double* shift_totals = work + 3 * n_mem;
  double* shift_slots = shift_totals + 3 + 2 * n_mem;
  double* gram = shift_slots + static_cast<std::size_t>(whiten_cuda_max_shift_blocks) * whiten_cuda_shift_slot;
  double* gram_slots = gram + static_cast<std::size_t>(n_mem + 1) * (n_mem + 1);
  double* gram_group_slots = gram_slots + static_cast<std::size_t>(whiten_cuda_max_gram_blocks) * pairs_max;
  double* pilot_slots = gram_group_slots + static_cast<std::size_t>(whiten_cuda_max_gram_blocks / whiten_cuda_gram_group) * pairs_max;
  const bool aligned = params.weights == WhitenWeights::least_squares;
  const LaunchShape& shape = launch_shape<T>(tunables);
  if (static_cast<long long>(job.ny) * job.nx > std::numeric_limits<int>::max()) {
    std::ostringstream os;
    os << "whiten: the CUDA variant takes frames of fewer than 2^31 pixels (got " << job.ny << " x " << job.nx << ")";
    throw Error(os.str());
  }
  if (job.m > 0) {
    double tolerance = params.tolerance_px;
    int max_passes = params.max_refinements;
    void* args[] = {&job, &tolerance, &max_passes, &shift_totals, &shift_slots, &pilot_slots};
    GRIDFLOW_CUDA_CHECK(cudaLaunchCooperativeKernel(shift_kernel<T>(tunables.shift_chunk), dim3(shape.shift_blocks), dim3(shift_threads),
                                                    args, 0, stream));

    const int m = job.m, n = m + 1;
    const int terms = whiten_polynomial_terms(params.degree);
    const std::size_t solve_bytes = solve_doubles(m, terms, aligned) * sizeof(double);
    // Tiles of tile_x columns by `strip` rows, narrowed until the staged values (double) and the
    // block's sums fit the room.
    const int pairs = n * (n + 1) / 2;
    auto staged = [&](int tx) { return (static_cast<std::size_t>(pairs) + static_cast<std::size_t>(n + 1) * gram_stride(tx * strip)) * sizeof(double); };
    int tile_x = std::max(1, tunables.gram_tile / strip);
    while (tile_x > 2 && staged(tile_x) > shape.gram_room) tile_x /= 2;
    const std::size_t bytes = std::max(staged(tile_x), solve_bytes);
    if (bytes > shape.gram_room) {
      std::ostringstream os;
      os << "whiten: the correlation kernel needs " << bytes << " bytes of shared memory for memory " << m << ", more than " << shape.gram_room;
      throw Error(os.str());
    }
    const long long tiles = static_cast<long long>((job.nx + tile_x - 1) / tile_x) * ((job.ny + strip - 1) / strip);
    const long long wanted = std::min<long long>(static_cast<long long>(shape.sms) * tunables.blocks_per_sm, whiten_cuda_max_gram_blocks);
    const int blocks = static_cast<int>(std::min<long long>(tiles, wanted));
    gram_kernel<T><<<blocks, gram_threads, bytes, stream>>>(job, aligned, params.degree, params.ridge, tile_x, gram, gram_slots,
                                                            gram_group_slots, counters);
    GRIDFLOW_CUDA_CHECK(cudaGetLastError());
  }
  const long long items = static_cast<long long>((job.nx + 31) / 32) * ((job.ny + strip - 1) / strip);
  const int blocks = static_cast<int>(std::min<long long>(items, 128LL * shape.sms));
  predict_kernel<T><<<blocks, dim3(32, predict_groups), 0, stream>>>(job, aligned);
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
}

template void launch_whiten_frame_cuda<float>(const WhitenFrame<float>&, const WhitenParams&, const WhitenTunables&, double*, unsigned*,
                                              StreamHandle);
template void launch_whiten_frame_cuda<double>(const WhitenFrame<double>&, const WhitenParams&, const WhitenTunables&, double*,
                                               unsigned*, StreamHandle);

}  // namespace gridflow::kernels::filter
