#pragma once
// The CUDA whitening kernels' samplers (whiten_cuda.cu): cubic samples of a frame down a column,
// a strip of R rows at a time, each row interpolation shared by the 4 samples that use it. The
// same T operations in the same order as whiten_sample (whiten_point.hpp), so the values equal
// the host's bit for bit (the kernels build with --fmad=false).
#include <cstddef>

#include "kernels/filter/whiten_point.hpp"

namespace gridflow::kernels::filter::whiten_cuda {

// The R samples of a strip from their (R + 3) x 4 taps: each row interpolated in x once, then the
// 4 rows of every sample in y (whiten_sample's T operations in its order).
template <int R, class T>
__device__ __forceinline__ void interpolate_strip(const T (&taps)[R + 3][4], const WhitenStencil<T>& s, T* out) {
  T h[R + 3];
#pragma unroll
  for (int i = 0; i < R + 3; ++i) h[i] = s.wx[0] * taps[i][0] + s.wx[1] * taps[i][1] + s.wx[2] * taps[i][2] + s.wx[3] * taps[i][3];
#pragma unroll
  for (int l = 0; l < R; ++l) {
    T v = 0;
    v += s.wy[0] * h[l];
    v += s.wy[1] * h[l + 1];
    v += s.wy[2] * h[l + 2];
    v += s.wy[3] * h[l + 3];
    out[l] = v;
  }
}

// The R samples of one frame down column x from row y0: the row interpolations of
// whiten_sample (same T operations in the same order, so the values equal the host's bit for bit),
// each shared by the 4 samples that use it, and every tap loaded first through the read-only path:
// 4 (R + 3) independent loads in flight per thread instead of a chain of rows.
template <int R, class T>
__device__ inline void column_strip(const T* __restrict__ f, int pitch, int ny, int nx, const WhitenStencil<T>& s, int y0, int x, T* out) {
  int c[4];
#pragma unroll
  for (int j = 0; j < 4; ++j) c[j] = whiten_clamp(x + s.ox - 1 + j, nx);
  T taps[R + 3][4];
#pragma unroll
  for (int i = 0; i < R + 3; ++i) {
    const T* p = f + static_cast<std::ptrdiff_t>(whiten_clamp(y0 + s.oy - 1 + i, ny)) * pitch;
#pragma unroll
    for (int j = 0; j < 4; ++j) taps[i][j] = __ldg(p + c[j]);
  }
  interpolate_strip<R>(taps, s, out);
}

// column_strip where every tap of the strip lies in the frame (column_strip_inside says so): the
// same taps and operations, without the clamps, from one base address with constant offsets.
template <int R, class T>
__device__ inline bool column_strip_inside(int ny, int nx, const WhitenStencil<T>& s, int y0, int x) {
  return x + s.ox - 1 >= 0 && x + s.ox + 2 <= nx - 1 && y0 + s.oy - 1 >= 0 && y0 + R + s.oy + 1 <= ny - 1;
}

template <int R, class T>
__device__ inline void column_strip_interior(const T* __restrict__ f, int pitch, const WhitenStencil<T>& s, int y0, int x, T* out) {
  const T* p = f + static_cast<std::ptrdiff_t>(y0 + s.oy - 1) * pitch + (x + s.ox - 1);
  T taps[R + 3][4];
#pragma unroll
  for (int i = 0; i < R + 3; ++i) {
#pragma unroll
    for (int j = 0; j < 4; ++j) taps[i][j] = __ldg(p + j);
    p += pitch;
  }
  interpolate_strip<R>(taps, s, out);
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

}  // namespace gridflow::kernels::filter::whiten_cuda
