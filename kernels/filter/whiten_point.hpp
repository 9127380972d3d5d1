#pragma once
// The per-pixel formulas of the whitening filter, shared by the host reference and the CUDA
// kernels. Frames are ny x nx, row y at f + y * pitch, x contiguous.
//
// Sampling: bilinear. A position outside [0, ny-1] x [0, nx-1] is clamped to the edge (the
// frame extended by its nearest value), so the outermost |s| pixels of an aligned frame repeat
// the edge. The shift sums skip those pixels instead: a pixel counts only where its gradient
// stencil lies in the frame (1 <= y <= ny-2, 1 <= x <= nx-2) and its sample position lies in
// [0, ny-1] x [0, nx-1], so no clamped value enters a shift estimate.
#include <cstddef>

#include "mesh/host_device.hpp"

namespace gridflow::kernels::filter {

/// f at the real position (y, x), bilinear between the four neighbours, positions clamped.
template <class T>
GRIDFLOW_HOST_DEVICE inline double whiten_sample(const T* f, std::ptrdiff_t pitch, int ny, int nx, double y, double x) {
  y = y < 0.0 ? 0.0 : (y > ny - 1 ? ny - 1 : y);
  x = x < 0.0 ? 0.0 : (x > nx - 1 ? nx - 1 : x);
  int y0 = static_cast<int>(y);
  int x0 = static_cast<int>(x);
  if (y0 > ny - 2) y0 = ny - 2;
  if (x0 > nx - 2) x0 = nx - 2;
  const double fy = y - y0;
  const double fx = x - x0;
  const T* r0 = f + static_cast<std::ptrdiff_t>(y0) * pitch + x0;
  const T* r1 = r0 + pitch;
  const double top = static_cast<double>(r0[0]) + fx * (static_cast<double>(r0[1]) - static_cast<double>(r0[0]));
  const double bottom = static_cast<double>(r1[0]) + fx * (static_cast<double>(r1[1]) - static_cast<double>(r1[0]));
  return top + fy * (bottom - top);
}

/// Whether pixel (y, x) enters the shift sums of a frame sampled at (y + sy, x + sx).
GRIDFLOW_HOST_DEVICE inline bool whiten_counts(int y, int x, int ny, int nx, double sy, double sx) {
  const double py = y + sy;
  const double px = x + sx;
  return y >= 1 && y <= ny - 2 && x >= 1 && x <= nx - 2 && py >= 0.0 && py <= ny - 1 && px >= 0.0 && px <= nx - 1;
}

/// The reference frame's terms at an interior pixel: g = dF/dy, h = dF/dx (central differences),
/// r = the 5-point average of F (the seed's formulas).
struct WhitenGradient {
  double g, h, r;
};

template <class T>
GRIDFLOW_HOST_DEVICE inline WhitenGradient whiten_gradient(const T* f, std::ptrdiff_t pitch, int y, int x) {
  const T* c = f + static_cast<std::ptrdiff_t>(y) * pitch + x;
  const double n = c[-pitch], s = c[pitch], w = c[-1], e = c[1], m = c[0];
  return {0.5 * (s - n), 0.5 * (e - w), 0.2 * (m + n + s + w + e)};
}

/// Sums over the counted pixels: p = sum g d, q = sum h d (d = aligned sample - r) per frame;
/// u = sum h^2, v = sum h g, w = sum g^2 over the same pixels (they depend on the frame's mask).
struct WhitenShiftSums {
  double p = 0, q = 0, u = 0, v = 0, w = 0;
};

/// Adds one pixel's products to `s`: `a` the aligned sample, `d` its gradient terms.
GRIDFLOW_HOST_DEVICE inline void whiten_accumulate(WhitenShiftSums& s, const WhitenGradient& d, double a) {
  const double diff = a - d.r;
  s.p += d.g * diff;
  s.q += d.h * diff;
  s.u += d.h * d.h;
  s.v += d.h * d.g;
  s.w += d.g * d.g;
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
