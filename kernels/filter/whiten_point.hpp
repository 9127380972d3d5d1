#pragma once
// The per-pixel formulas of the whitening filter, shared by the host reference and the CUDA
// kernels. Frames are ny x nx, row y at f + y * pitch, x contiguous.
//
// Sampling: cubic convolution (Keys, a = -0.5: Catmull-Rom), 4 x 4 taps, computed in T. A shift
// is constant over a frame, so its integer part and the 2 x 4 tap weights are found once per
// frame (WhitenStencil) and every pixel reuses them. Taps beyond an edge read the edge (the frame
// extended by its nearest value), so the outermost |s| + 1 pixels of an aligned frame lean on
// repeated edge values. The shift sums skip those pixels (whiten_reference_margin), so no edge
// tap enters them.
#include <cmath>
#include <cstddef>

#include "mesh/host_device.hpp"

namespace gridflow::kernels::filter {

/// The taps of a sample at (y + sy, x + sx): rows y + oy - 1 .. y + oy + 2 weighted wy[0..3],
/// columns likewise. No initializers: the CUDA kernels keep stencils in shared memory.
template <class T>
struct WhitenStencil {
  int oy, ox;
  T wy[4];
  T wx[4];
};

/// Keys' cubic weights for the fraction t in [0, 1) of the taps at -1, 0, 1, 2.
template <class T>
GRIDFLOW_HOST_DEVICE inline void whiten_cubic_weights(T t, T* w) {
  const T t2 = t * t, t3 = t2 * t;
  w[0] = T(0.5) * (-t3 + T(2) * t2 - t);
  w[1] = T(0.5) * (T(3) * t3 - T(5) * t2 + T(2));
  w[2] = T(0.5) * (T(-3) * t3 + T(4) * t2 + t);
  w[3] = T(0.5) * (t3 - t2);
}

template <class T>
GRIDFLOW_HOST_DEVICE inline int whiten_floor(T v) {
  int i = static_cast<int>(v);
  return i > v ? i - 1 : i;
}

/// The stencil of the shift (sy, sx).
template <class T>
GRIDFLOW_HOST_DEVICE inline WhitenStencil<T> whiten_stencil(double sy, double sx) {
  WhitenStencil<T> s;
  s.oy = whiten_floor(sy);
  s.ox = whiten_floor(sx);
  whiten_cubic_weights(static_cast<T>(sy - s.oy), s.wy);
  whiten_cubic_weights(static_cast<T>(sx - s.ox), s.wx);
  return s;
}

GRIDFLOW_HOST_DEVICE inline int whiten_clamp(int i, int n) { return i < 0 ? 0 : (i > n - 1 ? n - 1 : i); }

/// f at (y + sy, x + sx) for the stencil of (sy, sx): rows interpolated along x, then along y.
template <class T>
GRIDFLOW_HOST_DEVICE inline T whiten_sample(const T* f, std::ptrdiff_t pitch, int ny, int nx, int y, int x, const WhitenStencil<T>& s) {
  int c[4];
  for (int j = 0; j < 4; ++j) c[j] = whiten_clamp(x + s.ox - 1 + j, nx);
  T v = 0;
  for (int i = 0; i < 4; ++i) {
    const T* row = f + static_cast<std::ptrdiff_t>(whiten_clamp(y + s.oy - 1 + i, ny)) * pitch;
    const T r = s.wx[0] * row[c[0]] + s.wx[1] * row[c[1]] + s.wx[2] * row[c[2]] + s.wx[3] * row[c[3]];
    v += s.wy[i] * r;
  }
  return v;
}

/// The margin of a shift pass whose largest shift component (any frame, either axis) is max_abs.
GRIDFLOW_HOST_DEVICE inline int whiten_margin(double max_abs) {
  int c = static_cast<int>(max_abs);
  if (c < max_abs) ++c;
  return 2 + c;
}

/// The reference frame's terms at an interior pixel: g = dF/dy, h = dF/dx (central differences),
/// r = the 5-point average of F (the seed's formulas).
struct WhitenGradient {
  double g, h, r;
};

/// The terms from F's values at the pixel (m) and its north, south, west and east neighbours.
GRIDFLOW_HOST_DEVICE inline WhitenGradient whiten_gradient_of(double n, double s, double w, double e, double m) {
  return {0.5 * (s - n), 0.5 * (e - w), 0.2 * (m + n + s + w + e)};
}

template <class T>
GRIDFLOW_HOST_DEVICE inline WhitenGradient whiten_gradient(const T* f, std::ptrdiff_t pitch, int y, int x) {
  const T* c = f + static_cast<std::ptrdiff_t>(y) * pitch + x;
  return whiten_gradient_of(c[-pitch], c[pitch], c[-1], c[1], c[0]);
}

/// Sums over the counted pixels: p = sum g d, q = sum h d (d = aligned sample - r) of one frame;
/// u = sum h^2, v = sum h g, w = sum g^2 of the reference, shared by the frames of a pass.
struct WhitenShiftSums {
  double p = 0, q = 0, u = 0, v = 0, w = 0;
};

/// Adds a counted pixel's terms: F's gradient terms d and the aligned sample there.
GRIDFLOW_HOST_DEVICE inline void whiten_add_shift_terms(WhitenShiftSums& s, const WhitenGradient& d, double sample) {
  const double diff = sample - d.r;
  s.u += d.h * d.h;
  s.v += d.h * d.g;
  s.w += d.g * d.g;
  s.p += d.g * diff;
  s.q += d.h * diff;
}

/// The residual shift (dy, dx) of the aligned frame against the reference: least squares of
/// d = -(dy g + dx h), i.e. dy = -(p u - q v) / (u w - v^2), dx = -(q w - p v) / (u w - v^2) (the
/// seed's formulas, whose sign is the opposite convention). A flat frame (u w - v^2 <= 0) gives 0.
GRIDFLOW_HOST_DEVICE inline void whiten_shift_update(const WhitenShiftSums& s, double& dy, double& dx) {
  const double det = s.u * s.w - s.v * s.v;
  if (!(det > 0.0)) {
    dy = 0.0;
    dx = 0.0;
    return;
  }
  dy = -(s.p * s.u - s.q * s.v) / det;
  dx = -(s.q * s.w - s.p * s.v) / det;
}

/// How far (pixels, either axis) a frame's S_t may lie from the anchor A before the history is
/// registered again around it. Farther than any jitter the filter is meant for (a scene shaken
/// by up to 1 px a frame has |S_t| <= 2), so only a drifting scene moves the anchor; near enough
/// that the registered frames' edge pixels (those leaning on repeated edge values) stay few.
inline constexpr double whiten_anchor_reach = 4.0;

/// Whether S_t = (sy, sx) has left the reach of the anchor (A_y, A_x).
GRIDFLOW_HOST_DEVICE inline bool whiten_anchor_moves(double sy, double sx, const double* anchor) {
  return fabs(sy - anchor[0]) >= whiten_anchor_reach || fabs(sx - anchor[1]) >= whiten_anchor_reach;
}

/// The largest component of S_{t-k} - A over the m predecessors (history: S_0 .. S_{t-1} as (y, x)
/// pairs): how far from the anchor the reference's frames were registered.
GRIDFLOW_HOST_DEVICE inline double whiten_reference_abs(const double* history, long long t, int m, const double* anchor) {
  double r = 0.0;
  for (int k = 1; k <= m; ++k)
    for (int a = 0; a < 2; ++a) r = fmax(r, fabs(history[2 * (t - k) + a] - anchor[a]));
  return r;
}

/// The whole pixel nearest to v (halves up): the anchor's component for S_t = v.
GRIDFLOW_HOST_DEVICE inline double whiten_anchor_for(double v) { return static_cast<double>(whiten_floor(v + 0.5)); }

/// The margin of a shift pass of the reference against F: the reference's own margin (its frames
/// registered with shifts up to reference_abs from the anchor) plus that of the shift s_abs.
GRIDFLOW_HOST_DEVICE inline int whiten_reference_margin(double s_abs, double reference_abs) {
  return whiten_margin(s_abs) + whiten_margin(reference_abs);
}

/// phi_j(sy, sx) for j = 0..whiten_polynomial_terms(degree)-1: by total degree e = 0..degree,
/// then sy^(e-i) sx^i for i = 0..e (1, sy, sx, sy^2, sy sx, sx^2, ...).
GRIDFLOW_HOST_DEVICE inline void whiten_monomials(double sy, double sx, int degree, double* phi) {
  int j = 0;
  for (int e = 0; e <= degree; ++e)
    for (int i = 0; i <= e; ++i) {
      double v = 1.0;
      for (int a = 0; a < e - i; ++a) v *= sy;
      for (int b = 0; b < i; ++b) v *= sx;
      phi[j++] = v;
    }
}

}  // namespace gridflow::kernels::filter
