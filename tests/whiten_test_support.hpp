#pragma once
// A synthetic star field for the whitening tests: Gaussian point sources (blurred profile) on a
// smooth background, every frame the same sky moved by a random jitter of up to 1 px per axis,
// Gaussian noise, and a faint object moving a fraction of a pixel per frame; optionally the whole
// scene drifting steadily on top of the jitter. Frames are ny x nx,
// contiguous, x fastest; the sky is analytic, so a shifted frame is exact (no resampling).
#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "kernels/filter/whiten.hpp"

namespace gridflow::testing {

struct StarFieldSpec {
  int ny = 128;
  int nx = 128;
  int frames = 40;
  int stars = 60;
  double star_sigma = 1.5;         ///< px, the blurred profile
  double star_min = 40.0, star_max = 400.0;  ///< peak amplitudes
  double jitter = 1.0;             ///< each axis of each frame's offset uniform in [-jitter, jitter]
  double noise = 1.0;              ///< standard deviation
  double object_peak = 6.0;        ///< the faint object's peak
  double object_sigma = 1.2;
  double object_vy = 0.15, object_vx = 0.25;  ///< px per frame
  double drift_y = 0.0, drift_x = 0.0;         ///< the whole scene's steady drift, px per frame, on top of the jitter
  unsigned seed = 14;
};

struct StarField {
  StarFieldSpec spec;
  std::vector<std::vector<double>> frames;           ///< frames[t][y * nx + x]
  std::vector<kernels::filter::WhitenShift> truth;   ///< content of frame t against frame 0
  std::vector<kernels::filter::WhitenShift> object;  ///< where the object is in frame t (y, x)
};

inline StarField make_star_field(const StarFieldSpec& spec) {
  StarField f;
  f.spec = spec;
  std::mt19937 rng(spec.seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::normal_distribution<double> gauss(0.0, spec.noise);
  // The object starts in the middle, and walks (vy, vx) per frame; no star within 8 px of its path.
  const double oy0 = 0.45 * spec.ny, ox0 = 0.4 * spec.nx;
  const double oy1 = oy0 + spec.object_vy * spec.frames, ox1 = ox0 + spec.object_vx * spec.frames;
  struct Star { double y, x, a; };
  std::vector<Star> stars;
  while (static_cast<int>(stars.size()) < spec.stars) {
    const Star s{unit(rng) * spec.ny, unit(rng) * spec.nx, spec.star_min + unit(rng) * (spec.star_max - spec.star_min)};
    const double len2 = (oy1 - oy0) * (oy1 - oy0) + (ox1 - ox0) * (ox1 - ox0);
    const double u = std::clamp(((s.y - oy0) * (oy1 - oy0) + (s.x - ox0) * (ox1 - ox0)) / len2, 0.0, 1.0);
    const double dy = s.y - (oy0 + u * (oy1 - oy0)), dx = s.x - (ox0 + u * (ox1 - ox0));
    if (dy * dy + dx * dx > 64.0) stars.push_back(s);
  }
  const double two_s2 = 2 * spec.star_sigma * spec.star_sigma, two_o2 = 2 * spec.object_sigma * spec.object_sigma;
  std::vector<kernels::filter::WhitenShift> offset(spec.frames);
  for (int t = 0; t < spec.frames; ++t)
    offset[t] = {spec.jitter * (2 * unit(rng) - 1) + spec.drift_y * t, spec.jitter * (2 * unit(rng) - 1) + spec.drift_x * t};
  for (int t = 0; t < spec.frames; ++t) {
    // frame_t(y, x) = sky(y - o_t, x - o_t): its content against frame 0 is o_t - o_0. Each source
    // is drawn on the pixels within 10 px of it (its profile is below 1e-9 of its peak beyond).
    const auto o = offset[t];
    std::vector<double> frame(static_cast<std::size_t>(spec.ny) * spec.nx);
    for (int y = 0; y < spec.ny; ++y)
      for (int x = 0; x < spec.nx; ++x) {
        const double sy = y - o.y, sx = x - o.x;
        frame[static_cast<std::size_t>(y) * spec.nx + x] =
            100.0 + 15.0 * std::sin(2 * M_PI * sy / (1.3 * spec.ny)) * std::cos(2 * M_PI * sx / (1.7 * spec.nx)) + 0.05 * sx;
      }
    auto draw = [&](double cy, double cx, double peak, double two_sigma2) {  // cy, cx in frame coordinates
      for (int y = std::max(0, static_cast<int>(cy) - 10); y <= std::min(spec.ny - 1, static_cast<int>(cy) + 10); ++y)
        for (int x = std::max(0, static_cast<int>(cx) - 10); x <= std::min(spec.nx - 1, static_cast<int>(cx) + 10); ++x) {
          const double r2 = (y - cy) * (y - cy) + (x - cx) * (x - cx);
          if (r2 < 100.0) frame[static_cast<std::size_t>(y) * spec.nx + x] += peak * std::exp(-r2 / two_sigma2);
        }
    };
    for (const auto& s : stars) draw(s.y + o.y, s.x + o.x, s.a, two_s2);
    const double py = oy0 + spec.object_vy * t + o.y, px = ox0 + spec.object_vx * t + o.x;
    draw(py, px, spec.object_peak, two_o2);
    for (auto& v : frame) v += gauss(rng);
    f.frames.push_back(std::move(frame));
    f.truth.push_back({o.y - offset[0].y, o.x - offset[0].x});
    f.object.push_back({py, px});
  }
  return f;
}

/// The object's signal-to-noise ratio in `frame`: its peak (the largest value within 2 px of
/// where it is) above the median of the ring 5..8 px around it, over the standard deviation of
/// the frame more than 10 px from it and more than 4 px from the edges.
template <class V>
double object_snr(const V& frame, int ny, int nx, kernels::filter::WhitenShift at) {
  double peak = -1e300;
  std::vector<double> ring, away;
  for (int y = 4; y < ny - 4; ++y)
    for (int x = 4; x < nx - 4; ++x) {
      const double r = std::hypot(y - at.y, x - at.x);
      const double v = frame[static_cast<std::size_t>(y) * nx + x];
      if (r <= 2.0) peak = std::max(peak, v);
      if (r >= 5.0 && r <= 8.0) ring.push_back(v);
      if (r > 10.0) away.push_back(v);
    }
  std::nth_element(ring.begin(), ring.begin() + ring.size() / 2, ring.end());
  double mean = 0.0, var = 0.0;
  for (double v : away) mean += v;
  mean /= away.size();
  for (double v : away) var += (v - mean) * (v - mean);
  return (peak - ring[ring.size() / 2]) / std::sqrt(var / away.size());
}

}  // namespace gridflow::testing
