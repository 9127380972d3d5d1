// The CUDA whitening variant: three launches per frame, no host round trip (whiten_cuda.hpp).
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <limits>
#include <type_traits>
#include <sstream>

#include "kernels/filter/whiten_cuda.hpp"
#include "kernels/filter/whiten_point.hpp"
#include "kernels/filter/whiten_solve_cuda.cuh"
#include "kernels/filter/whiten_strip_cuda.cuh"
#include "mesh/check.hpp"

namespace gridflow::kernels::filter {

namespace {

namespace cg = cooperative_groups;
using namespace whiten_cuda;

constexpr int threads = 256;  // threads of the shift and join kernels (8 warps)
constexpr int warps = threads / 32;

__device__ inline double warp_sum(double v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

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

// Sum of entry e of every block's slot (slot b at slots[b * stride]), in slot order: lane l adds
// slots l, l + 32, ..., then the warp adds its lanes. One warp calls it; every lane gets the sum.
// The loads go out 8 at a time: these sums sit on the critical path of every pass and of the
// solve, where a chain of one L2 round trip per slot would cost microseconds.
__device__ inline double sum_slots(const double* slots, int stride, int e, int blocks) {
  double v = 0.0;
  int b = threadIdx.x % 32;
  for (; b + 7 * 32 < blocks; b += 8 * 32) {
    double x[8];
#pragma unroll
    for (int q = 0; q < 8; ++q) x[q] = __ldcg(&slots[static_cast<std::size_t>(b + 32 * q) * stride + e]);
#pragma unroll
    for (int q = 0; q < 8; ++q) v += x[q];
  }
  for (; b < blocks; b += 32) v += __ldcg(&slots[static_cast<std::size_t>(b) * stride + e]);
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

// The terms of a whole strip of R counted rows down column x: every load first (the reference's
// (R + 3) x 4 taps, F's column with a row above and below and its two neighbour columns), then
// whiten_gradient's and the sampler's operations, so a strip waits for memory once.
template <int R, class T>
__device__ inline void strip_shift_sums(const WhitenFrame<T>& job, const WhitenStencil<T>& st, int y0, int x, WhitenShiftSums& sums) {
  T ref[R];
  column_strip_interior<R>(job.reference, job.nx, st, y0, x, ref);
  const std::ptrdiff_t pitch = job.frame_pitch;
  const T* c = job.frame + static_cast<std::ptrdiff_t>(y0) * pitch + x;
  T col[R + 2], left[R], right[R];
#pragma unroll
  for (int l = 0; l < R + 2; ++l) col[l] = __ldg(c + (l - 1) * pitch);
#pragma unroll
  for (int l = 0; l < R; ++l) {
    left[l] = __ldg(c + l * pitch - 1);
    right[l] = __ldg(c + l * pitch + 1);
  }
#pragma unroll
  for (int l = 0; l < R; ++l)
    whiten_add_shift_terms(sums, whiten_gradient_of(col[l], col[l + 2], left[l], right[l], col[l + 1]), static_cast<double>(ref[l]));
}

// Step 1 (whiten.hpp): the shift passes of the reference against F, one cooperative launch. A pass
// deals strips of R rows of one counted column to the threads (lanes on neighbouring
// columns); each block writes its sums u, v, w, p, q to its slot in one of two sets (by pass
// parity: a block can run at most one pass ahead of the slowest) and, after one grid barrier,
// every block adds the slots in slot order itself and applies the same update. Then, where S_t
// left the anchor's reach, the anchor moves and the same launch registers the history again and
// (least squares) recomputes its products.
template <int R, class T>
__global__ void __launch_bounds__(threads, 2)
    shift_kernel(WhitenFrame<T> job, bool aligned, double tolerance, int max_passes, double* pass_slots, double* pair_slots) {
  cg::grid_group grid = cg::this_grid();
  __shared__ double s_part[warps][5];
  __shared__ double s_tot[5];
  __shared__ double s_s[2], s_A[2], s_ref_abs;
  __shared__ double s_warps[warps];
  __shared__ WhitenStencil<T> s_st;
  __shared__ WhitenStencil<T> s_hist[max_whiten_memory];
  __shared__ const T* s_orig[max_whiten_memory];
  __shared__ T* s_reg[max_whiten_memory];
  __shared__ int s_margin, s_more;
  const int m = job.m, ny = job.ny, nx = job.nx, tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const long long t = job.t;
  const double* S = job.history;
  if (tid == 0) {
    s_A[0] = job.anchor[0];
    s_A[1] = job.anchor[1];
    s_ref_abs = whiten_reference_abs(S, t, m, s_A);
    s_s[0] = s_A[0] - S[2 * (t - 1)];
    s_s[1] = s_A[1] - S[2 * (t - 1) + 1];
  }
  const long long gthreads = static_cast<long long>(gridDim.x) * blockDim.x;
  const long long gtid = static_cast<long long>(blockIdx.x) * blockDim.x + tid;
  // The pass's margin and stencil, from s (thread 0, before a barrier).
  auto prepare = [&] {
    s_margin = whiten_reference_margin(fmax(fabs(s_s[0]), fabs(s_s[1])), s_ref_abs);
    s_st = whiten_stencil<T>(s_s[0], s_s[1]);
  };
  if (tid == 0) prepare();
  int passes = 0;
  for (;;) {
    __syncthreads();
    const int margin = s_margin;
    const WhitenStencil<T> st = s_st;
    const int xhi = nx - 1 - margin, yhi = ny - 1 - margin;
    WhitenShiftSums sums;
    if (xhi >= margin && yhi >= margin) {
      const int cols = ((xhi - margin + 1 + 31) / 32) * 32, strips = (yhi - margin + R) / R;
      const long long items = static_cast<long long>(cols) * strips;
      for (long long i = gtid; i < items; i += gthreads) {
        const int x = margin + static_cast<int>(i % cols), y0 = margin + static_cast<int>(i / cols) * R;
        if (x > xhi) continue;
        const int n_rows = min(R, yhi - y0 + 1);
        if (n_rows == R) {
          strip_shift_sums<R>(job, st, y0, x, sums);
          continue;
        }
        InteriorSampler<T> cs;  // the last, partial strip of a column
        cs.start(job.reference, nx, st, y0, x);
        for (int l = 0; l < n_rows; ++l) {
          whiten_add_shift_terms(sums, whiten_gradient(job.frame, job.frame_pitch, y0 + l, x), static_cast<double>(cs.sample(nx, st)));
        }
      }
    }
    const double sum[5] = {sums.u, sums.v, sums.w, sums.p, sums.q};
#pragma unroll
    for (int e = 0; e < 5; ++e) {
      const double v = warp_sum(sum[e]);
      if (lane == 0) s_part[warp][e] = v;
    }
    __syncthreads();
    double* set = pass_slots + static_cast<std::size_t>(passes % 2) * gridDim.x * 5;
    if (tid < 5) {
      double v = 0.0;
      for (int w = 0; w < warps; ++w) v += s_part[w][tid];
      set[static_cast<std::size_t>(blockIdx.x) * 5 + tid] = v;
    }
    grid.sync();
    if (warp < 5) {
      const double v = sum_slots(set, 5, warp, gridDim.x);
      if (lane == 0) s_tot[warp] = v;
    }
    __syncthreads();
    if (tid == 0) {
      WhitenShiftSums ss;
      ss.u = s_tot[0];
      ss.v = s_tot[1];
      ss.w = s_tot[2];
      ss.p = s_tot[3];
      ss.q = s_tot[4];
      double dy, dx;
      whiten_shift_update(ss, dy, dx);
      s_s[0] += dy;
      s_s[1] += dx;
      s_more = fabs(dy) >= tolerance || fabs(dx) >= tolerance;
      prepare();
    }
    __syncthreads();
    ++passes;
    if (s_more && passes < max_passes) continue;
    break;
  }
  const double Sy = s_A[0] - s_s[0], Sx = s_A[1] - s_s[1];
  if (blockIdx.x == 0) {
    for (int k = tid; k < m; k += blockDim.x) {
      job.pair_shift[2 * k] = S[2 * (t - 1 - k)] - Sy;
      job.pair_shift[2 * k + 1] = S[2 * (t - 1 - k) + 1] - Sx;
    }
    if (tid == 0) {
      job.history[2 * t] = Sy;
      job.history[2 * t + 1] = Sx;
      job.refinements[t] = passes;
    }
  }
  // Step 2: the same decision in every block.
  if (!whiten_anchor_moves(Sy, Sx, s_A)) return;
  const double Ay = whiten_anchor_for(Sy), Ax = whiten_anchor_for(Sx);
  if (blockIdx.x == 0 && tid == 0) {  // every block read the old anchor before the first grid barrier
    job.anchor[0] = Ay;
    job.anchor[1] = Ax;
    job.anchor[2] += 1.0;
  }
  for (int k = tid; k < m; k += blockDim.x) {
    s_hist[k] = whiten_stencil<T>(S[2 * (t - 1 - k)] - Ay, S[2 * (t - 1 - k) + 1] - Ax);
    s_orig[k] = job.remembered[k];
    s_reg[k] = job.registered[k];
  }
  __syncthreads();
  const long long pixels = static_cast<long long>(ny) * nx;
  for (long long i = gtid; i < m * pixels; i += gthreads) {
    const int k = static_cast<int>(i / pixels);
    const long long p = i % pixels;
    s_reg[k][p] = whiten_sample(s_orig[k], nx, ny, nx, static_cast<int>(p / nx), static_cast<int>(p % nx), s_hist[k]);
  }
  if (!aligned) return;
  grid.sync();
  const int pairs = m * (m + 1) / 2;
  for (int e = 0; e < pairs; ++e) {
    int k, l;
    packed_lower_entry(e, k, l);
    const T* a = s_reg[k];
    const T* b = s_reg[l];
    double v = 0.0;
    for (long long p = gtid; p < pixels; p += gthreads) v += static_cast<double>(a[p]) * static_cast<double>(b[p]);
    v = block_sum(v, s_warps);
    if (tid == 0) pair_slots[static_cast<std::size_t>(blockIdx.x) * pairs + e] = v;
  }
  grid.sync();
  for (int e = blockIdx.x * warps + warp; e < pairs; e += gridDim.x * warps) {
    int k, l;
    packed_lower_entry(e, k, l);
    const double v = sum_slots(pair_slots, pairs, e, gridDim.x);
    if (lane == 0) job.set_product(job.slots[k], job.slots[l], v);
  }
}

// Frames k0 .. k0 + G - 1 (those below `count`) down the strip of column x from row y0, every load
// issued before any is used; 0 past n_rows and past count.
template <int G, int R, class T>
__device__ __forceinline__ void load_group(const T* const* frames, int k0, int count, int nx, int y0, int x, int n_rows, T (&v)[G][R]) {
#pragma unroll
  for (int q = 0; q < G; ++q)
#pragma unroll
    for (int l = 0; l < R; ++l)
      v[q][l] = l < n_rows && k0 + q < count ? frames[k0 + q][static_cast<std::ptrdiff_t>(y0 + l) * nx + x] : T(0);
}

// Step 3 (whiten.hpp): F joins the history. Each thread takes strips of R rows down one column
// (lanes on neighbouring columns) with no barrier until the block's sums: it registers its strip
// of F (R_t, written to its ring slot), then walks the history 64 / R frames at a time, every load of a
// group first (64 values), adding the next reference (R_t + R_1 + R_2 + ..., the host's order) and the
// products of the newest basis values (R_t, or F for the polynomial weights) with each basis
// frame. Each warp adds its products per frame into shared memory, the block its warps in order
// into its slot; the last block to finish adds the slots in order, fills F's row and column of the
// table and finds the weights. For least squares with m <= inverse_rows, one block more (block 0)
// inverts the ridge system meanwhile: its G is in the table before F arrives, so the last block
// multiplies the inverse by b instead of running m dependent elimination steps. Frame 0 (m = 0)
// only joins.
template <int R, class T>
__global__ void __launch_bounds__(threads)
    join_kernel(WhitenFrame<T> job, bool aligned, int degree, double ridge, double* slots, unsigned* counter, double* inverse) {
  extern __shared__ double smem[];  // the solve's room
  constexpr int G = 64 / R;  // history frames whose loads a thread issues together (64 values)
  __shared__ const T* s_basis[max_whiten_memory + G];
  __shared__ const T* s_reg[max_whiten_memory + G];
  __shared__ double s_acc[warps][max_whiten_memory + 1];  // per warp: the newest with itself, then with frame k
  __shared__ double s_task[max_whiten_memory + 1];
  __shared__ int s_slot[max_whiten_memory];  // job.slots: the last block indexes them at random
  __shared__ WhitenStencil<T> s_st;
  __shared__ int s_last;
  const int m = job.m, tasks = m + 1, ny = job.ny, nx = job.nx, tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const long long t = job.t;
  if (tid == 0) {
    double sy = 0.0, sx = 0.0;  // frame 0: S_0 = A = 0
    if (m > 0) {
      sy = job.history[2 * t] - job.anchor[0];
      sx = job.history[2 * t + 1] - job.anchor[1];
    } else if (blockIdx.x == 0) {
      job.history[2 * t] = 0.0;
      job.history[2 * t + 1] = 0.0;
      job.refinements[t] = 0;
    }
    s_st = whiten_stencil<T>(sy, sx);
  }
  for (int k = tid; k < m; k += threads) {
    s_basis[k] = aligned ? job.registered[k] : job.remembered[k];
    s_reg[k] = job.registered[k];
    s_slot[k] = job.slots[k];
  }
  for (int e = tid; e < warps * (max_whiten_memory + 1); e += threads) s_acc[e / (max_whiten_memory + 1)][e % (max_whiten_memory + 1)] = 0.0;
  __syncthreads();
  // Where `inverse` is given, block 0 inverts the least-squares system meanwhile (its G is all in
  // the table already), on an SM of its own where the grid leaves one free: the last block then
  // needs one product, not a chain of m Gauss-Jordan steps. The launcher decides, and adds the block.
  const int inverting = inverse ? 1 : 0;
  const int block = blockIdx.x - inverting, blocks = gridDim.x - inverting;  // of the main phase
  const int stride = job.ring;  // a slot holds up to N + 1 sums
  if (block < 0) {
    invert_system(job, ridge, smem, inverse);
  } else {
    const WhitenStencil<T> st = s_st;
    const int cols = ((nx + 31) / 32) * 32, older = job.m_next() - 1;  // frames beside R_t in the next reference
    const double mean_factor = 1.0 / job.m_next();                          // the host's factor of the mean
    const long long items = static_cast<long long>(cols) * ((ny + R - 1) / R);
    const long long gthreads = static_cast<long long>(blocks) * threads;
    const long long rounds = (items + gthreads - 1) / gthreads;  // the same for every warp: warp sums see whole warps
    for (long long round = 0; round < rounds; ++round) {
      const long long i = static_cast<long long>(block) * threads + tid + round * gthreads;
      const int x = static_cast<int>(i % cols), y0 = static_cast<int>(i / cols) * R;
      const int n_rows = i < items && x < nx ? min(R, ny - y0) : 0;
      double newest[R], ref[R];  // 0 past the frame
#pragma unroll
      for (int l = 0; l < R; ++l) newest[l] = ref[l] = 0.0;
      if (n_rows > 0) {
        T r[R];
        const int pitch = static_cast<int>(job.frame_pitch);
        if (column_strip_inside<R>(ny, nx, st, y0, x)) column_strip_interior<R>(job.frame, pitch, st, y0, x, r);
        else column_strip<R>(job.frame, pitch, ny, nx, st, y0, x, r);
#pragma unroll
        for (int l = 0; l < R; ++l)
          if (l < n_rows) {
            job.registered_store[static_cast<std::ptrdiff_t>(y0 + l) * nx + x] = r[l];
            ref[l] = static_cast<double>(r[l]);
            newest[l] = aligned ? ref[l] : static_cast<double>(job.frame[static_cast<std::ptrdiff_t>(y0 + l) * pitch + x]);
          }
      }
      double self = 0.0;
#pragma unroll
      for (int l = 0; l < R; ++l) self += newest[l] * newest[l];
      self = warp_sum(self);
      if (lane == 0) s_acc[warp][0] += self;
      for (int k0 = 0; k0 < m; k0 += G) {
        T b[G][R];
        load_group(s_basis, k0, m, nx, y0, x, n_rows, b);
        double prod[G];
#pragma unroll
        for (int q = 0; q < G; ++q) {
          prod[q] = 0.0;
#pragma unroll
          for (int l = 0; l < R; ++l) {
            prod[q] += newest[l] * static_cast<double>(b[q][l]);
            if (aligned && k0 + q < older) ref[l] += static_cast<double>(b[q][l]);  // the basis frames are the registered ones
          }
        }
#pragma unroll
        for (int q = 0; q < G; ++q) {
          const double v = warp_sum(prod[q]);
          if (lane == 0 && k0 + q < m) s_acc[warp][1 + k0 + q] += v;
        }
      }
      if (!aligned)
        for (int k0 = 0; k0 < older; k0 += G) {
          T o[G][R];
          load_group(s_reg, k0, older, nx, y0, x, n_rows, o);
#pragma unroll
          for (int q = 0; q < G; ++q)
#pragma unroll
            for (int l = 0; l < R; ++l)
              if (k0 + q < older) ref[l] += static_cast<double>(o[q][l]);
        }
#pragma unroll
      for (int l = 0; l < R; ++l)
        if (l < n_rows) job.reference[static_cast<std::ptrdiff_t>(y0 + l) * nx + x] = static_cast<T>(ref[l] * mean_factor);
    }
    __syncthreads();
    for (int j = tid; j < tasks; j += threads) {
      double v = 0.0;
      for (int w = 0; w < warps; ++w) v += s_acc[w][j];
      s_task[j] = v;
    }
    __syncthreads();
    for (int j = tid; j < tasks; j += threads) slots[static_cast<std::size_t>(block) * stride + j] = s_task[j];
  }
  __threadfence();
  __syncthreads();
  if (tid == 0) s_last = atomicAdd(counter, 1u) == gridDim.x - 1;
  __syncthreads();
  if (!s_last) return;
  __threadfence();
  // The last block: a chain of dependent steps on one SM, so every load of a step goes out before
  // any is used. Thread (j, q) adds slots q, q + parts, ... of sum j (all 128 slots of the usual
  // grid in one round trip); thread j then adds its parts in order. With them load (least squares)
  // block 0's inverse, or else G of the system [G | b] (b is F's new row) to solve here.
  const int parts = threads / tasks;
  double* part = smem;              // threads doubles, then the system
  double* system = smem + threads;  // the inverse (stride m) or [G | b] (stride m + 1)
  const bool use_inverse = inverting != 0;
  constexpr int ahead = 4;          // entries a thread loads before the sums: all of them up to m = 32
  const int entries = aligned ? m * m : 0;
  auto load = [&](int e) {  // entry e = (i, c) of the inverse or of G, row-major m x m
    const int i = e / m;
    return use_inverse ? __ldcg(&inverse[e]) : job.product(s_slot[i], s_slot[e - i * m]);
  };
  auto at = [&](int e) { return use_inverse ? e : e + e / m; };  // its place: stride m or m + 1
  double g[ahead];
#pragma unroll
  for (int r = 0; r < ahead; ++r) {
    const int e = tid + r * threads;
    g[r] = e < entries ? load(e) : 0.0;
  }
  if (tid < tasks * parts) {
    const int j = tid / parts, q = tid - j * parts;
    double v = 0.0;
    constexpr int batch = 16;
    for (int b0 = q; b0 < blocks; b0 += batch * parts) {
      double x[batch];
#pragma unroll
      for (int u = 0; u < batch; ++u) {
        const int b = b0 + u * parts;
        x[u] = b < blocks ? __ldcg(&slots[static_cast<std::size_t>(b) * stride + j]) : 0.0;
      }
#pragma unroll
      for (int u = 0; u < batch; ++u) v += x[u];
    }
    part[tid] = v;
  }
#pragma unroll
  for (int r = 0; r < ahead; ++r)
    if (tid + r * threads < entries) system[at(tid + r * threads)] = g[r];
  for (int e = tid + ahead * threads; e < entries; e += threads) system[at(e)] = load(e);
  __syncthreads();
  if (tid < tasks) {
    double v = 0.0;
    for (int q = 0; q < parts; ++q) v += part[tid * parts + q];
    s_task[tid] = v;
    job.set_product(job.slot, tid == 0 ? job.slot : s_slot[tid - 1], v);
  }
  if (tid == 0) *counter = 0u;  // for the next frame
  __syncthreads();
  if (m == 0) return;
  if (use_inverse) {
    for (int k = tid; k < m; k += threads) {
      double a = 0.0;
      for (int l = 0; l < m; ++l) a += system[k * m + l] * s_task[1 + l];
      job.weights[k] = a;
    }
  } else if (aligned) {
    for (int i = tid; i < m; i += threads) system[i * (m + 1) + m] = s_task[1 + i];
    __syncthreads();
    least_squares_weights(job, ridge, system);
  } else {
    polynomial_weights(job, degree, ridge, system);  // reads the table back
  }
}

// out = F - sum_k a_k B_k and the ring slot's copy of F. A block is 32 columns by `predict_groups`
// frame groups: thread (x, g) sums the frames k = g, g + G, ... down a strip of rows, and the
// groups' partial sums meet in shared memory; thread (x, g) then finishes rows g, g + G, ... of
// the strip. Frame 0 (m = 0) is copied.
constexpr int strip = 8;  // rows one thread walks down a column, the 4 row interpolations of a
                          // sample sliding along in registers
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
          if (column_strip_inside<strip>(ny, nx, st, y0, x)) column_strip_interior<strip>(s_frames[k], nx, st, y0, x, v);
          else column_strip<strip>(s_frames[k], nx, ny, nx, st, y0, x, v);
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

// The kernels compiled for a strip length R (tunables.rows).
template <class T>
struct Kernels {
  const void* shift;
  void (*join)(WhitenFrame<T>, bool, int, double, double*, unsigned*, double*);
};

template <class T>
Kernels<T> kernels_for(int rows) {
  switch (rows) {
    case 4: return {reinterpret_cast<const void*>(&shift_kernel<4, T>), &join_kernel<4, T>};
    case 16: return {reinterpret_cast<const void*>(&shift_kernel<16, T>), &join_kernel<16, T>};
    default: return {reinterpret_cast<const void*>(&shift_kernel<8, T>), &join_kernel<8, T>};
  }
}

// The launch shapes that depend only on the device and the tunables, found once per thread.
struct LaunchShape {
  int device = -1, blocks_per_sm = 0, rows = 0;
  int sms = 0, shift_blocks = 0;
};

template <class T>
const LaunchShape& launch_shape(const WhitenTunables& tunables) {
  thread_local LaunchShape shape;
  int device = 0;
  GRIDFLOW_CUDA_CHECK(cudaGetDevice(&device));
  if (shape.device == device && shape.blocks_per_sm == tunables.blocks_per_sm && shape.rows == tunables.rows) return shape;
  shape.device = device;
  shape.blocks_per_sm = tunables.blocks_per_sm;
  shape.rows = tunables.rows;
  GRIDFLOW_CUDA_CHECK(cudaDeviceGetAttribute(&shape.sms, cudaDevAttrMultiProcessorCount, device));
  int per_sm = 0;
  GRIDFLOW_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernels_for<T>(tunables.rows).shift, threads, 0));
  if (per_sm < 1) {
    std::ostringstream os;
    os << "whiten: the shift kernel cannot run " << tunables << " (no block fits on an SM)";
    throw Error(os.str());
  }
  // Co-resident (cooperative launch) and within the slots of the work buffer.
  shape.shift_blocks = std::min(std::min(per_sm, tunables.blocks_per_sm) * shape.sms, whiten_cuda_max_blocks);
  return shape;
}

}  // namespace

template <class T>
void launch_whiten_frame_cuda(const WhitenFrame<T>& job_in, const WhitenParams& params, const WhitenTunables& tunables, double* work,
                              unsigned* counters, StreamHandle stream) {
  WhitenFrame<T> job = job_in;
  const std::size_t n_mem = params.memory, blocks_max = whiten_cuda_max_blocks;
  job.weights = work;
  job.pair_shift = work + n_mem;
  job.anchor = work + 3 * n_mem;
  job.products = job.anchor + 3;
  double* pass_slots = job.products + (n_mem + 1) * (n_mem + 1);
  double* join_slots = pass_slots + blocks_max * 2 * 5;
  double* pair_slots = join_slots + blocks_max * (n_mem + 1);
  double* inverse = pair_slots + blocks_max * (n_mem * (n_mem + 1) / 2);
  const bool aligned = params.weights == WhitenWeights::least_squares;
  const LaunchShape& shape = launch_shape<T>(tunables);
  const Kernels<T> kernels = kernels_for<T>(tunables.rows);
  if (static_cast<long long>(job.ny) * job.nx > std::numeric_limits<int>::max()) {
    std::ostringstream os;
    os << "whiten: the CUDA variant takes frames of fewer than 2^31 pixels (got " << job.ny << " x " << job.nx << ")";
    throw Error(os.str());
  }
  const int rows = tunables.rows;
  const long long strips = static_cast<long long>((job.nx + 31) / 32) * 32 * ((job.ny + rows - 1) / rows);  // thread tasks of a pass
  if (job.m > 0) {
    double tolerance = params.tolerance_px;
    int max_passes = params.max_refinements;
    bool least_squares = aligned;
    void* args[] = {&job, &least_squares, &tolerance, &max_passes, &pass_slots, &pair_slots};
    // No more blocks than the frame's strips fill: the grid barrier and the slot sums of every pass
    // grow with the blocks, and idle blocks only wait at the barrier.
    const int shift_blocks = static_cast<int>(std::min<long long>(shape.shift_blocks, (strips + threads - 1) / threads));
    GRIDFLOW_CUDA_CHECK(cudaLaunchCooperativeKernel(kernels.shift, dim3(shift_blocks), dim3(threads), args, 0, stream));
  }
  const int terms = whiten_polynomial_terms(params.degree);
  // Least squares with m <= inverse_rows: the join's block 0 inverts the system (one block more than
  // the strips fill, within the grid's cap); the kernel learns it from `inverse` alone. And room for
  // the solve or the inversion.
  const int inverting = aligned && job.m > 0 && job.m <= inverse_rows ? 1 : 0;
  const std::size_t bytes =
      std::max<std::size_t>(threads + solve_doubles(job.m, terms, aligned), inverting ? inverse_doubles(job.m) : 0) * sizeof(double);
  const long long join_cap = std::min<long long>(static_cast<long long>(shape.sms) * tunables.blocks_per_sm, whiten_cuda_max_blocks);
  const int join_blocks = static_cast<int>(std::max<long long>(1 + inverting, std::min<long long>((strips + threads - 1) / threads + inverting, join_cap)));
  kernels.join<<<join_blocks, threads, bytes, stream>>>(job, aligned, params.degree, params.ridge, join_slots, counters,
                                                       inverting ? inverse : nullptr);
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
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
