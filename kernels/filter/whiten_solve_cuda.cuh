#pragma once
// The ridge solves of the CUDA whitening variant (whiten_cuda.cu), by one block in shared memory: the
// least-squares system's inverse (made by the join kernel's block 0 beside its main phase), or the
// weights a_k from the table of products directly, of the least-squares system or its projection
// on the polynomial weights' monomials (whiten.hpp).
#include "kernels/filter/whiten_frame.hpp"
#include "kernels/filter/whiten_point.hpp"

namespace gridflow::kernels::filter::whiten_cuda {

// Entry e of a packed lower triangle (row i, column c <= i at i (i + 1) / 2 + c) as (i, c).
__device__ inline void packed_lower_entry(int e, int& i, int& c) {
  i = 0;
  while ((i + 1) * (i + 2) / 2 <= e) ++i;
  c = e - i * (i + 1) / 2;
}

// The ridge's shift of the diagonal of the n x n system in a (row stride `stride`), ridge * trace /
// n, the trace added in row order.
__device__ inline double ridge_shift(const double* a, int n, int stride, double ridge) {
  double trace = 0.0;
  for (int i = 0; i < n; ++i) trace += a[i * stride + i];
  return ridge * trace / n;
}

// Solves the augmented system [A | B] (A n x n, B n x rhs, row stride n + rhs) in shared memory by
// Gauss-Jordan without pivoting, A symmetric positive definite once the ridge is added to its
// diagonal; X[i][q] = B[i][q] / A[i][i] on return. Every thread of the block calls it: a lane per
// row, the block's warps taking turns at a step's columns four at a time (their loads before
// their stores), one barrier a step. Returns false where a pivot is not positive (X must then be
// taken as 0).
__device__ inline bool gauss_jordan(double* a, int n, int rhs, double ridge) {
  const int tid = threadIdx.x, nthreads = blockDim.x, lane = tid % 32, warp = tid / 32, warps = nthreads / 32;
  const int cols = n + rhs;
  const double shift = ridge_shift(a, n, cols, ridge);
  __syncthreads();  // every thread has read the diagonal
  for (int i = tid; i < n; i += nthreads) a[i * cols + i] += shift;
  __syncthreads();
  for (int j = 0; j < n; ++j) {
    const double* pivot_row = a + j * cols;
    const double piv = pivot_row[j];
    if (!(piv > 0.0)) return false;  // every thread reads the same pivot: all leave together
    const double inv = 1.0 / piv;
    // Row j and column j are only read in this step; the entries written are in other rows and
    // later columns, each by one thread.
    for (int i = lane; i < n; i += 32) {
      if (i == j) continue;
      double* row = a + i * cols;
      const double f = row[j] * inv;
      for (int c = j + 1 + 4 * warp; c < cols; c += 4 * warps) {
        double p[4], x[4];
#pragma unroll
        for (int u = 0; u < 4; ++u)
          if (c + u < cols) {
            p[u] = pivot_row[c + u];
            x[u] = row[c + u];
          }
#pragma unroll
        for (int u = 0; u < 4; ++u)
          if (c + u < cols) row[c + u] = x[u] - f * p[u];
      }
    }
    __syncthreads();
  }
  return true;
}

// Doubles of shared memory the solve needs for m frames (and J terms).
__host__ __device__ inline int solve_doubles(int m, int terms, bool aligned) {
  if (aligned) return m * (m + 1);                                   // [G | b]
  return m * (m + 1) / 2 + m + 2 * m * terms + terms * (terms + 1);  // G (lower, packed), b, Phi, G Phi, [Gp | bp]
}

// The least-squares weights a_k from [G | b] in shared memory (row stride m + 1), G_kl =
// products[slot_k][slot_l], b_k = products[slot][slot_k]. Every thread of the block calls it.
template <class T>
__device__ inline void least_squares_weights(const WhitenFrame<T>& job, double ridge, double* system) {
  const int m = job.m;
  const bool ok = gauss_jordan(system, m, 1, ridge);
  for (int k = threadIdx.x; k < m; k += blockDim.x) job.weights[k] = ok ? system[k * (m + 1) + m] / system[k * (m + 1) + k] : 0.0;
}

// Largest memory whose system the join kernel inverts beside its main phase (in dynamic shared memory
// that needs no opt-in: 2 m^2 doubles).
constexpr int inverse_rows = 32;

// Doubles of shared memory invert_system needs for m frames.
__host__ __device__ inline int inverse_doubles(int m) { return 2 * m * m; }

// The least-squares system's inverse, (G + ridge I)^-1 with G_kl = products[slot_k][slot_l], by
// Gauss-Jordan on [G | I] (row-major into `inverse`, m x m). Every thread of the block calls it;
// a holds inverse_doubles(m).
template <class T>
__device__ inline void invert_system(const WhitenFrame<T>& job, double ridge, double* a, double* inverse) {
  const int n = job.m, cols = 2 * n, tid = threadIdx.x, nthreads = blockDim.x;
  // G's loads four at a time, then I beside it.
  for (int e0 = tid; e0 < n * n; e0 += 4 * nthreads) {
    double v[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) {
      const int e = e0 + u * nthreads, i = e / n;
      v[u] = e < n * n ? job.product(job.slots[i], job.slots[e - i * n]) : 0.0;
    }
#pragma unroll
    for (int u = 0; u < 4; ++u) {
      const int e = e0 + u * nthreads, i = e / n;
      if (e < n * n) a[i * cols + e - i * n] = v[u];
    }
  }
  for (int e = tid; e < n * n; e += nthreads) {
    const int i = e / n;
    a[i * cols + n + e - i * n] = e - i * n == i ? 1.0 : 0.0;
  }
  __syncthreads();
  const bool ok = gauss_jordan(a, n, n, ridge);
  for (int e = tid; e < n * n; e += nthreads) {
    const int i = e / n;
    inverse[e] = ok ? a[i * cols + n + e - i * n] / a[i * cols + i] : 0.0;  // no system: weights 0
  }
}

// The polynomial weights (whiten.hpp) from the table of products: G_kl = products[slot_k][slot_l],
// b_k = products[slot][slot_k]. Every thread of the block calls it; smem holds solve_doubles.
template <class T>
__device__ inline void polynomial_weights(const WhitenFrame<T>& job, int degree, double ridge, double* smem) {
  const int m = job.m, tid = threadIdx.x;
  auto G = [&](int i, int c) { return job.product(job.slots[i], job.slots[c]); };
  auto b_of = [&](int i) { return job.product(job.slot, job.slots[i]); };
  const int terms = whiten_polynomial_terms(degree);
  double* gm = smem;                 // lower triangle, packed: (i, c <= i) at i (i + 1) / 2 + c
  double* b = gm + m * (m + 1) / 2;  // m
  double* phi = b + m;               // m x terms
  double* gphi = phi + m * terms;    // m x terms
  double* sys = gphi + m * terms;    // terms x (terms + 1)
  for (int e = tid; e < m * (m + 1) / 2; e += blockDim.x) {
    int i, c;
    packed_lower_entry(e, i, c);
    gm[e] = G(i, c);
  }
  for (int i = tid; i < m; i += blockDim.x) {
    b[i] = b_of(i);
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
  const bool ok = gauss_jordan(sys, terms, 1, ridge);
  for (int k = tid; k < m; k += blockDim.x) {
    double a = 0.0;
    for (int i = 0; i < terms; ++i) a += phi[k * terms + i] * sys[i * (terms + 1) + terms] / sys[i * (terms + 1) + i];
    job.weights[k] = ok ? a : 0.0;
  }
}

}  // namespace gridflow::kernels::filter::whiten_cuda
