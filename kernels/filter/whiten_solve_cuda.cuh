#pragma once
// The ridge solve of the CUDA whitening variant (whiten_cuda.cu): the weights a_k from the table of
// products, by one block in shared memory, the least-squares system or its projection on the
// polynomial weights' monomials (whiten.hpp).
#include "kernels/filter/whiten_frame.hpp"
#include "kernels/filter/whiten_point.hpp"

namespace gridflow::kernels::filter::whiten_cuda {

// Entry e of a packed lower triangle (row i, column c <= i at i (i + 1) / 2 + c) as (i, c).
__device__ inline void packed_lower_entry(int e, int& i, int& c) {
  i = 0;
  while ((i + 1) * (i + 2) / 2 <= e) ++i;
  c = e - i * (i + 1) / 2;
}

// Solves the n x (n+1) augmented system [A | b] in shared memory by Gauss-Jordan without pivoting
// (A symmetric positive definite with the ridge); x_j = A[j][n] / A[j][j] on return. Every thread of
// the block calls it. Returns false where a pivot is not positive (x must then be taken as 0).
__device__ inline bool gauss_jordan(double* a, int n, double ridge) {
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

// Doubles of shared memory the solve needs for m frames (and J terms).
__host__ __device__ inline int solve_doubles(int m, int terms, bool aligned) {
  if (aligned) return m * (m + 1);                                   // [G | b]
  return m * (m + 1) / 2 + m + 2 * m * terms + terms * (terms + 1);  // G (lower, packed), b, Phi, G Phi, [Gp | bp]
}

// The weights a_k from the table of products (whiten.hpp): G_kl = products[slot_k][slot_l], b_k =
// products[slot][slot_k]. Every thread of the block calls it; smem holds solve_doubles.
template <class T>
__device__ inline void solve_weights(const WhitenFrame<T>& job, bool aligned, int degree, double ridge, double* smem) {
  const int m = job.m, tid = threadIdx.x;
  auto G = [&](int i, int c) { return job.product(job.slots[i], job.slots[c]); };
  auto b_of = [&](int i) { return job.product(job.slot, job.slots[i]); };
  if (aligned) {
    double* g = smem;
    for (int e = tid; e < m * m; e += blockDim.x) g[(e / m) * (m + 1) + e % m] = G(e / m, e % m);
    for (int i = tid; i < m; i += blockDim.x) g[i * (m + 1) + m] = b_of(i);
    __syncthreads();
    const bool ok = gauss_jordan(g, m, ridge);
    for (int k = tid; k < m; k += blockDim.x) job.weights[k] = ok ? g[k * (m + 1) + m] / g[k * (m + 1) + k] : 0.0;
    return;
  }
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
  const bool ok = gauss_jordan(sys, terms, ridge);
  for (int k = tid; k < m; k += blockDim.x) {
    double a = 0.0;
    for (int i = 0; i < terms; ++i) a += phi[k * terms + i] * sys[i * (terms + 1) + terms] / sys[i * (terms + 1) + i];
    job.weights[k] = ok ? a : 0.0;
  }
}

}  // namespace gridflow::kernels::filter::whiten_cuda
