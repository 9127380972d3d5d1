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
constexpr int gram_threads = 256;      // threads of the correlation kernel: one per matrix entry
constexpr int gram_pairs_max = (max_whiten_memory + 1) * (max_whiten_memory + 2) / 2;
constexpr std::size_t default_shared = 48 * 1024;

__device__ inline double warp_sum(double v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

// The samples of one frame down a column: the row interpolations of whiten_sample (same T
// operations in the same order, so the values equal the host's bit for bit), slid along the rows.
template <class T>
struct ColumnSampler {
  const T* f;
  int ny, nx;
  int c[4];
  const WhitenStencil<T>* s;
  T h0, h1, h2;
  int next;  // the row the next h3 comes from, before clamping

  __device__ T row(int r) const {
    const T* p = f + static_cast<std::ptrdiff_t>(whiten_clamp(r, ny)) * nx;
    return s->wx[0] * p[c[0]] + s->wx[1] * p[c[1]] + s->wx[2] * p[c[2]] + s->wx[3] * p[c[3]];
  }
  /// Starts at output row y of column x.
  __device__ void start(const T* frame, int ny_, int nx_, const WhitenStencil<T>* st, int y, int x) {
    f = frame;
    ny = ny_;
    nx = nx_;
    s = st;
    for (int j = 0; j < 4; ++j) c[j] = whiten_clamp(x + s->ox - 1 + j, nx);
    h0 = row(y + s->oy - 1);
    h1 = row(y + s->oy);
    h2 = row(y + s->oy + 1);
    next = y + s->oy + 2;
  }
  /// The sample at the current row; moves one row down.
  __device__ T sample() {
    const T h3 = row(next++);
    T v = 0;
    v += s->wy[0] * h0;
    v += s->wy[1] * h1;
    v += s->wy[2] * h2;
    v += s->wy[3] * h3;
    h0 = h1;
    h1 = h2;
    h2 = h3;
    return v;
  }
};

// ColumnSampler's samples where no tap needs clamping (the pixels a shift pass counts, see
// whiten_margin): the same T operations in the same order, from one pointer and three rows, so a
// block keeps several frames' samplers in few registers.
template <class T>
struct InteriorSampler {
  const T* next;  // the first tap of the row the next h3 comes from
  T h0, h1, h2;

  __device__ static T row(const T* p, const WhitenStencil<T>& s) { return s.wx[0] * p[0] + s.wx[1] * p[1] + s.wx[2] * p[2] + s.wx[3] * p[3]; }
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

// A pass spreads its `active` frames over ceil(active / CHUNK) chunks: block b sums chunk
// b % chunks over the pixel strips of group b / chunks (the blocks past the last full group idle).
// Its sums go to its slot: u, v, w, then p, q of the chunk's frames. After a barrier, block i adds
// sum i (u, v, w, then p_k, q_k) over the groups' slots in group order into `totals`; after a
// second barrier every block reads the totals. Pilot passes (frame 1 alone) come first when m > 1.
constexpr int shift_threads_max = 256;
constexpr int shift_slot = whiten_cuda_shift_slot;

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

template <class T, int CHUNK>
__global__ void __launch_bounds__(shift_threads_max, CHUNK == 2 ? 3 : 2)
    shift_passes_kernel(WhitenFrame<T> job, double tolerance, int max_passes, double* totals, double* slots) {
  static_assert(3 + 2 * CHUNK <= shift_slot, "a block's sums fit its slot");
  cg::grid_group grid = cg::this_grid();
  __shared__ double s_shift[2 * max_whiten_memory];
  __shared__ double s_warp[shift_threads_max / 32][3 + 2 * CHUNK];
  __shared__ double s_warps[shift_threads_max / 32];
  __shared__ WhitenStencil<T> s_stencil[CHUNK];
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
  for (int pass = 0;; ++pass) {
    const int active = pilot ? 1 : m;
    const int chunks = (active + CHUNK - 1) / CHUNK, groups = static_cast<int>(gridDim.x) / chunks;
    const int chunk = blockIdx.x % chunks, group = blockIdx.x / chunks, k0 = chunk * CHUNK;
    const int mine = min(CHUNK, active - k0);  // frames of this block's chunk
    __syncthreads();
    if (tid == 0) {
      double max_abs = 0.0;
      for (int i = 0; i < 2 * active; ++i) max_abs = fmax(max_abs, fabs(s_shift[i]));
      s_margin = whiten_margin(max_abs);
      s_more = 0;
    }
    if (tid < mine) s_stencil[tid] = whiten_stencil<T>(s_shift[2 * (k0 + tid)], s_shift[2 * (k0 + tid) + 1]);
    __syncthreads();
    if (group < groups) {
      // Work items: a column x and a strip of rows from y0, over the counted pixels.
      const int margin = s_margin;
      const int wy = ny - 2 * margin, wx = nx - 2 * margin;
      const int strips = wy > 0 ? (wy + strip - 1) / strip : 0;
      const int items = wx > 0 ? wx * strips : 0;  // below 2^31: the launcher checks the frame size
      const int stride = groups * static_cast<int>(blockDim.x);
      double sum[3 + 2 * CHUNK];
#pragma unroll
      for (int j = 0; j < 3 + 2 * CHUNK; ++j) sum[j] = 0.0;
      for (int i = group * static_cast<int>(blockDim.x) + tid; i < items; i += stride) {
        const int x = margin + i % wx;
        const int y0 = margin + (i / wx) * strip;
        const int rows = min(strip, ny - margin - y0);
        InteriorSampler<T> cs[CHUNK];
#pragma unroll
        for (int j = 0; j < CHUNK; ++j)
          if (j < mine) cs[j].start(s_frames[k0 + j], nx, s_stencil[j], y0, x);
        // Rows outer, frames inner: the gradient once per row, the frames' loads independent.
#pragma unroll
        for (int l = 0; l < strip; ++l)
          if (l < rows) {
            const WhitenGradient d = whiten_gradient(job.frame, job.frame_pitch, y0 + l, x);
            sum[0] += d.h * d.h;
            sum[1] += d.h * d.g;
            sum[2] += d.g * d.g;
#pragma unroll
            for (int j = 0; j < CHUNK; ++j)
              if (j < mine) {
                const double diff = static_cast<double>(cs[j].sample(nx, s_stencil[j])) - d.r;
                sum[3 + 2 * j] += d.g * diff;
                sum[4 + 2 * j] += d.h * diff;
              }
          }
      }
#pragma unroll
      for (int j = 0; j < 3 + 2 * CHUNK; ++j) {
        const double v = warp_sum(sum[j]);
        if (lane == 0) s_warp[warp][j] = v;
      }
      __syncthreads();
      if (tid < 3 + 2 * CHUNK) {
        double v = 0.0;
        for (int w = 0; w < static_cast<int>(blockDim.x / 32); ++w) v += s_warp[w][tid];
        slots[static_cast<std::size_t>(blockIdx.x) * shift_slot + tid] = v;
      }
    }
    grid.sync();
    const int sums = 3 + 2 * active;
    for (int i = blockIdx.x; i < sums; i += gridDim.x) {  // the same i for the whole block
      int c = 0, j = i;
      if (i >= 3) {
        const int k = (i - 3) / 2;
        c = k / CHUNK;
        j = 3 + 2 * (k % CHUNK) + (i - 3) % 2;
      }
      double v = 0.0;
      for (int g = tid; g < groups; g += blockDim.x) v += __ldcg(&slots[static_cast<std::size_t>(c + g * chunks) * shift_slot + j]);
      v = block_sum(v, s_warps);
      if (tid == 0) totals[i] = v;
    }
    grid.sync();
    // Every block applies the same updates to the same totals.
    for (int k = tid; k < active; k += blockDim.x) {
      WhitenShiftSums ss;
      ss.u = __ldcg(totals);
      ss.v = __ldcg(totals + 1);
      ss.w = __ldcg(totals + 2);
      ss.p = __ldcg(totals + 3 + 2 * k);
      ss.q = __ldcg(totals + 4 + 2 * k);
      double dy, dx;
      whiten_shift_update(ss, dy, dx);
      s_shift[2 * k] += dy;
      s_shift[2 * k + 1] += dx;
      if (fabs(dy) >= tolerance || fabs(dx) >= tolerance) s_more = 1;
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

// The correlations of the m basis frames and F (index m), one thread per entry (k >= l), over
// shared-memory tiles of tile_x columns by `strip` rows. Each block writes its sums to its slot
// (pair-major: entry e of block b at slots[b * pairs + e]); the last block of each group of
// whiten_cuda_gram_group blocks adds the group's slots in block order into the group's slot, and
// the last group to finish adds the groups in order into `gram` and solves for the weights.
// PAIRS: matrix entries per thread (the kernel is built for 1, 2, 4 and 9: few registers where the
// memory is small, so more blocks share an SM).
template <class T, int PAIRS>
__global__ void __launch_bounds__(gram_threads) gram_kernel(WhitenFrame<T> job, bool aligned, int degree, double ridge, int tile_x,
                                                            double* gram, double* slots, double* group_slots, unsigned* counters) {
  extern __shared__ double smem[];
  __shared__ WhitenStencil<T> s_stencil[max_whiten_memory];
  __shared__ const T* s_frames[max_whiten_memory];
  __shared__ int s_last;
  T* vals = reinterpret_cast<T*>(smem);
  const int m = job.m, n = m + 1, ny = job.ny, nx = job.nx, tid = threadIdx.x;
  const int tile = tile_x * strip, row = tile + 1;  // padded: one pixel's values fall in different banks
  for (int k = tid; k < m; k += blockDim.x) s_frames[k] = job.remembered[k];
  if (aligned)
    for (int k = tid; k < m; k += blockDim.x) s_stencil[k] = whiten_stencil<T>(job.pair_shift[2 * k], job.pair_shift[2 * k + 1]);
  const int pairs = n * (n + 1) / 2;
  int pk[PAIRS], pl[PAIRS];
  double acc[PAIRS];
#pragma unroll
  for (int j = 0; j < PAIRS; ++j) {
    const int idx = tid + j * gram_threads;
    int k = static_cast<int>((sqrt(8.0 * idx + 1.0) - 1.0) / 2.0);
    while (k * (k + 1) / 2 > idx) --k;
    while ((k + 1) * (k + 2) / 2 <= idx) ++k;
    pk[j] = idx < pairs ? k : 0;
    pl[j] = idx < pairs ? idx - k * (k + 1) / 2 : 0;
    acc[j] = 0.0;
  }
  __syncthreads();
  const int tiles_x = (nx + tile_x - 1) / tile_x, tiles_y = (ny + strip - 1) / strip;
  const long long tiles = static_cast<long long>(tiles_x) * tiles_y;
  for (long long ti = blockIdx.x; ti < tiles; ti += gridDim.x) {
    const int x0 = static_cast<int>(ti % tiles_x) * tile_x, y0 = static_cast<int>(ti / tiles_x) * strip;
    // One task per (frame, column): the column's `strip` values of that frame.
    for (int task = tid; task < n * tile_x; task += blockDim.x) {
      const int k = task / tile_x, cx = task % tile_x, x = x0 + cx;
      T* dst = vals + k * row + cx;
      if (x >= nx) {
        for (int l = 0; l < strip; ++l) dst[l * tile_x] = T(0);
        continue;
      }
      if (k == m || !aligned) {
        const T* src = k == m ? job.frame + x : s_frames[k] + x;
        const std::ptrdiff_t pitch = k == m ? job.frame_pitch : nx;
#pragma unroll
        for (int l = 0; l < strip; ++l) dst[l * tile_x] = y0 + l < ny ? src[(y0 + l) * pitch] : T(0);
      } else {
        ColumnSampler<T> cs;
        cs.start(s_frames[k], ny, nx, &s_stencil[k], y0, x);
#pragma unroll
        for (int l = 0; l < strip; ++l) {
          const T v = cs.sample();
          dst[l * tile_x] = y0 + l < ny ? v : T(0);
        }
      }
    }
    __syncthreads();
#pragma unroll
    for (int j = 0; j < PAIRS; ++j)
      if (tid + j * gram_threads < pairs) {
        const T* a = vals + pk[j] * row;
        const T* b = vals + pl[j] * row;
        double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;  // four chains: the adds overlap
        for (int p = 0; p < tile; p += 4) {  // tile = tile_x * strip, a multiple of 8
          s0 += static_cast<double>(a[p]) * static_cast<double>(b[p]);
          s1 += static_cast<double>(a[p + 1]) * static_cast<double>(b[p + 1]);
          s2 += static_cast<double>(a[p + 2]) * static_cast<double>(b[p + 2]);
          s3 += static_cast<double>(a[p + 3]) * static_cast<double>(b[p + 3]);
        }
        acc[j] += (s0 + s1) + (s2 + s3);
      }
    __syncthreads();
  }
#pragma unroll
  for (int j = 0; j < PAIRS; ++j)
    if (tid + j * gram_threads < pairs) slots[static_cast<std::size_t>(blockIdx.x) * pairs + tid + j * gram_threads] = acc[j];
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
// groups' partial sums meet in shared memory. Frame 0 (m = 0) is copied.
constexpr int predict_groups = 8;

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
          ColumnSampler<T> cs;
          cs.start(s_frames[k], ny, nx, &s_stencil[k], y0, x);
#pragma unroll
          for (int l = 0; l < strip; ++l)
            if (l < rows) p[l] += a * static_cast<double>(cs.sample());
        } else {
#pragma unroll
          for (int l = 0; l < strip; ++l)
            if (l < rows) p[l] += a * static_cast<double>(s_frames[k][static_cast<std::ptrdiff_t>(y0 + l) * nx + x]);
        }
      }
#pragma unroll
    for (int l = 0; l < strip; ++l) s_part[g][l][lane] = p[l];
    __syncthreads();
    // Thread (lane, g) finishes row g of the strip (strip == predict_groups).
    const int y = y0 + g;
    if (x < nx && g < rows) {
      double sum = 0.0;
#pragma unroll
      for (int q = 0; q < predict_groups; ++q) sum += s_part[q][g][lane];
      const T f = job.frame[y * job.frame_pitch + x];
      job.store[static_cast<std::ptrdiff_t>(y) * nx + x] = f;
      job.out[y * job.out_pitch + x] = static_cast<T>(static_cast<double>(f) - sum);
    }
    __syncthreads();
  }
}

int shift_threads(const WhitenTunables& t) { return std::min(t.threads, shift_threads_max); }

template <class T>
const void* shift_kernel(int chunk) {
  return chunk == 4 ? reinterpret_cast<const void*>(&shift_passes_kernel<T, 4>) : reinterpret_cast<const void*>(&shift_passes_kernel<T, 2>);
}

// The launch shapes that depend only on the device and the tunables, found once per thread.
struct LaunchShape {
  int device = -1, threads = 0, blocks_per_sm = 0, shift_chunk = 0;
  int sms = 0, shift_blocks = 0;
  std::size_t gram_static_shared = 0;  // the correlation kernel's own shared memory
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
  GRIDFLOW_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, shift_kernel<T>(tunables.shift_chunk), shift_threads(tunables), 0));
  if (per_sm < 1) {
    std::ostringstream os;
    os << "whiten: the shift kernel cannot run " << tunables << " (no block fits on an SM)";
    throw Error(os.str());
  }
  // Co-resident (cooperative launch) and within the slots of the work buffer.
  shape.shift_blocks = std::min(std::min(per_sm, tunables.blocks_per_sm) * shape.sms, whiten_cuda_max_shift_blocks);
  cudaFuncAttributes attr{};
  GRIDFLOW_CUDA_CHECK(cudaFuncGetAttributes(&attr, gram_kernel<T, gram_pairs_max / gram_threads + 1>));  // all share the static part
  shape.gram_static_shared = attr.sharedSizeBytes;
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
    void* args[] = {&job, &tolerance, &max_passes, &shift_totals, &shift_slots};
    GRIDFLOW_CUDA_CHECK(cudaLaunchCooperativeKernel(shift_kernel<T>(tunables.shift_chunk), dim3(shape.shift_blocks),
                                                    dim3(shift_threads(tunables)), args, 0, stream));

    const int m = job.m, n = m + 1;
    const int terms = whiten_polynomial_terms(params.degree);
    const std::size_t solve_bytes = solve_doubles(m, terms, aligned) * sizeof(double);
    // Tiles of tile_x columns by `strip` rows, narrowed until the tile fits beside the kernel's
    // static shared memory in the default 48 KiB (no opt-in needed).
    const std::size_t room = default_shared - shape.gram_static_shared;
    int tile_x = std::max(1, tunables.gram_tile / strip);
    while (tile_x > 1 && static_cast<std::size_t>(n) * (tile_x * strip + 1) * sizeof(T) > room) tile_x = std::max(1, tile_x / 2);
    const std::size_t bytes = std::max(static_cast<std::size_t>(n) * (tile_x * strip + 1) * sizeof(T), solve_bytes);
    if (bytes > room) {
      std::ostringstream os;
      os << "whiten: the correlation kernel needs " << bytes << " bytes of shared memory for memory " << m << ", more than " << room;
      throw Error(os.str());
    }
    const long long tiles = static_cast<long long>((job.nx + tile_x - 1) / tile_x) * ((job.ny + strip - 1) / strip);
    const long long wanted = std::min<long long>(static_cast<long long>(shape.sms) * tunables.blocks_per_sm, whiten_cuda_max_gram_blocks);
    const int blocks = static_cast<int>(std::min<long long>(tiles, wanted));
    const int pairs = n * (n + 1) / 2;
    auto gram_kernel_for = [&](auto per_thread) {
      gram_kernel<T, decltype(per_thread)::value><<<blocks, gram_threads, bytes, stream>>>(job, aligned, params.degree, params.ridge, tile_x, gram,
                                                                                         gram_slots, gram_group_slots, counters);
    };
    static_assert(9 * gram_threads >= gram_pairs_max, "the widest correlation kernel covers every pair");
    if (pairs <= gram_threads) gram_kernel_for(std::integral_constant<int, 1>{});
    else if (pairs <= 2 * gram_threads) gram_kernel_for(std::integral_constant<int, 2>{});
    else if (pairs <= 4 * gram_threads) gram_kernel_for(std::integral_constant<int, 4>{});
    else gram_kernel_for(std::integral_constant<int, 9>{});
    GRIDFLOW_CUDA_CHECK(cudaGetLastError());
  }
  static_assert(strip == predict_groups, "the prediction's groups finish one row of the strip each");
  const long long items = static_cast<long long>((job.nx + 31) / 32) * ((job.ny + strip - 1) / strip);
  const int blocks = static_cast<int>(std::min<long long>(items, 64LL * shape.sms));
  predict_kernel<T><<<blocks, dim3(32, predict_groups), 0, stream>>>(job, aligned);
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
}

template void launch_whiten_frame_cuda<float>(const WhitenFrame<float>&, const WhitenParams&, const WhitenTunables&, double*, unsigned*,
                                              StreamHandle);
template void launch_whiten_frame_cuda<double>(const WhitenFrame<double>&, const WhitenParams&, const WhitenTunables&, double*,
                                               unsigned*, StreamHandle);

}  // namespace gridflow::kernels::filter
