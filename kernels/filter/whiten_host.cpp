#include "kernels/filter/whiten_host.hpp"

#include <algorithm>
#include <cmath>

#include "kernels/filter/whiten_point.hpp"

namespace gridflow::kernels::filter {

void whiten_solve_ridge(std::vector<double> a, std::vector<double>& b, int n, double ridge) {
  double trace = 0.0;
  for (int i = 0; i < n; ++i) trace += a[i * n + i];
  const double shift = ridge * trace / n;
  for (int i = 0; i < n; ++i) a[i * n + i] += shift;
  // Cholesky, L in the lower triangle of a.
  for (int j = 0; j < n; ++j) {
    double d = a[j * n + j];
    for (int k = 0; k < j; ++k) d -= a[j * n + k] * a[j * n + k];
    if (!(d > 0.0)) {
      std::fill(b.begin(), b.begin() + n, 0.0);
      return;
    }
    d = std::sqrt(d);
    a[j * n + j] = d;
    for (int i = j + 1; i < n; ++i) {
      double v = a[i * n + j];
      for (int k = 0; k < j; ++k) v -= a[i * n + k] * a[j * n + k];
      a[i * n + j] = v / d;
    }
  }
  for (int i = 0; i < n; ++i) {
    double v = b[i];
    for (int k = 0; k < i; ++k) v -= a[i * n + k] * b[k];
    b[i] = v / a[i * n + i];
  }
  for (int i = n - 1; i >= 0; --i) {
    double v = b[i];
    for (int k = i + 1; k < n; ++k) v -= a[k * n + i] * b[k];
    b[i] = v / a[i * n + i];
  }
}

namespace {

template <class T>
void copy_frame(const WhitenFrame<T>& job) {
  for (int y = 0; y < job.ny; ++y)
    for (int x = 0; x < job.nx; ++x) {
      const T f = job.frame[y * job.frame_pitch + x];
      job.store[static_cast<std::ptrdiff_t>(y) * job.nx + x] = f;
      job.out[y * job.out_pitch + x] = f;
    }
}

// One shift pass over the first `active` frames: s_k += the residual shift. Returns the largest
// update component.
template <class T>
double shift_pass(const WhitenFrame<T>& job, int active, std::vector<double>& s) {
  double max_abs = 0.0;
  for (int i = 0; i < 2 * active; ++i) max_abs = std::max(max_abs, std::fabs(s[i]));
  const int margin = whiten_margin(max_abs);
  std::vector<WhitenShiftSums> sums(active);
  std::vector<WhitenStencil<T>> stencil(active);
  for (int k = 0; k < active; ++k) stencil[k] = whiten_stencil<T>(s[2 * k], s[2 * k + 1]);
  double u = 0.0, v = 0.0, w = 0.0;
  for (int y = margin; y <= job.ny - 1 - margin; ++y)
    for (int x = margin; x <= job.nx - 1 - margin; ++x) {
      const WhitenGradient d = whiten_gradient(job.frame, job.frame_pitch, y, x);
      u += d.h * d.h;
      v += d.h * d.g;
      w += d.g * d.g;
      for (int k = 0; k < active; ++k) {
        const double diff = static_cast<double>(whiten_sample(job.remembered[k], job.nx, job.ny, job.nx, y, x, stencil[k])) - d.r;
        sums[k].p += d.g * diff;
        sums[k].q += d.h * diff;
      }
    }
  double largest_update = 0.0;
  for (int k = 0; k < active; ++k) {
    sums[k].u = u;
    sums[k].v = v;
    sums[k].w = w;
    double dy, dx;
    whiten_shift_update(sums[k], dy, dx);
    s[2 * k] += dy;
    s[2 * k + 1] += dx;
    largest_update = std::max({largest_update, std::fabs(dy), std::fabs(dx)});
  }
  return largest_update;
}

// The refinement: s on entry the starting guesses, on return the estimates. With m > 1, pilot
// passes refine the newest frame alone first and move every other guess by what it learnt
// (whiten_pilot_guess); then the passes over all m frames. Returns the passes over all frames.
template <class T>
int refine_shifts(const WhitenFrame<T>& job, const WhitenParams& params, std::vector<double>& s) {
  const int m = job.m;
  if (m > 1) {
    for (int pilot = 1;; ++pilot)
      if (!(shift_pass(job, 1, s) >= whiten_pilot_tolerance_factor * params.tolerance_px) || pilot >= params.max_refinements) break;
    for (int k = 1; k < m; ++k)
      for (int a = 0; a < 2; ++a) s[2 * k + a] = whiten_pilot_guess(job.history[2 * (job.t - 1 - k) + a], job.history[2 * (job.t - 1) + a], s[a]);
  }
  for (int pass = 1;; ++pass)
    if (!(shift_pass(job, m, s) >= params.tolerance_px) || pass >= params.max_refinements) return pass;
}

// B_k at pixel (y, x): the aligned sample, or the remembered value itself.
template <class T>
T basis_value(const WhitenFrame<T>& job, const std::vector<WhitenStencil<T>>* stencil, int k, int y, int x) {
  if (!stencil) return job.remembered[k][static_cast<std::ptrdiff_t>(y) * job.nx + x];
  return whiten_sample(job.remembered[k], job.nx, job.ny, job.nx, y, x, (*stencil)[k]);
}

}  // namespace

template <class T>
void whiten_frame_host(const WhitenFrame<T>& job, const WhitenParams& params) {
  const int m = job.m;
  if (m == 0) {
    copy_frame(job);
    job.history[2 * job.t] = 0.0;
    job.history[2 * job.t + 1] = 0.0;
    job.refinements[job.t] = 0;
    return;
  }
  // Shifts: s_k starts at S_{t-k} - S_{t-1}, k = 1..m (index k-1 here).
  const double* prev = job.history + 2 * (job.t - 1);
  std::vector<double> s(2 * m);
  for (int k = 0; k < m; ++k) {
    s[2 * k] = job.history[2 * (job.t - 1 - k)] - prev[0];
    s[2 * k + 1] = job.history[2 * (job.t - 1 - k) + 1] - prev[1];
  }
  job.refinements[job.t] = refine_shifts(job, params, s);
  double sy = 0.0, sx = 0.0;
  for (int k = 0; k < m; ++k) {
    sy += job.history[2 * (job.t - 1 - k)] - s[2 * k];
    sx += job.history[2 * (job.t - 1 - k) + 1] - s[2 * k + 1];
    job.pair_shift[2 * k] = s[2 * k];
    job.pair_shift[2 * k + 1] = s[2 * k + 1];
  }
  job.history[2 * job.t] = sy / m;
  job.history[2 * job.t + 1] = sx / m;

  // Correlations of the basis frames with each other (g) and with F (b).
  const bool aligned = params.weights == WhitenWeights::least_squares;
  std::vector<WhitenStencil<T>> stencil(m);
  for (int k = 0; k < m; ++k) stencil[k] = whiten_stencil<T>(s[2 * k], s[2 * k + 1]);
  const auto* taps = aligned ? &stencil : nullptr;
  std::vector<double> g(static_cast<std::size_t>(m) * m, 0.0), b(m, 0.0), basis(m);
  for (int y = 0; y < job.ny; ++y)
    for (int x = 0; x < job.nx; ++x) {
      const double f = job.frame[y * job.frame_pitch + x];
      for (int k = 0; k < m; ++k) basis[k] = basis_value(job, taps, k, y, x);
      for (int k = 0; k < m; ++k) {
        b[k] += basis[k] * f;
        for (int l = 0; l <= k; ++l) g[k * m + l] += basis[k] * basis[l];
      }
    }

  std::vector<double> a(m);
  if (aligned) {
    whiten_solve_ridge(g, b, m, params.ridge);
    a.assign(b.begin(), b.begin() + m);
  } else {
    const int terms = whiten_polynomial_terms(params.degree);
    std::vector<double> phi(static_cast<std::size_t>(m) * terms);
    for (int k = 0; k < m; ++k) whiten_monomials(s[2 * k], s[2 * k + 1], params.degree, &phi[k * terms]);
    for (int k = 0; k < m; ++k)
      for (int l = 0; l < k; ++l) g[l * m + k] = g[k * m + l];
    std::vector<double> gp(static_cast<std::size_t>(terms) * terms, 0.0), bp(terms, 0.0);
    for (int i = 0; i < terms; ++i) {
      for (int k = 0; k < m; ++k) bp[i] += phi[k * terms + i] * b[k];
      for (int j = 0; j <= i; ++j) {
        double v = 0.0;
        for (int k = 0; k < m; ++k)
          for (int l = 0; l < m; ++l) v += phi[k * terms + i] * g[k * m + l] * phi[l * terms + j];
        gp[i * terms + j] = v;
      }
    }
    whiten_solve_ridge(gp, bp, terms, params.ridge);
    for (int k = 0; k < m; ++k) {
      a[k] = 0.0;
      for (int i = 0; i < terms; ++i) a[k] += phi[k * terms + i] * bp[i];
    }
  }
  for (int k = 0; k < m; ++k) job.weights[k] = a[k];

  for (int y = 0; y < job.ny; ++y)
    for (int x = 0; x < job.nx; ++x) {
      const T f = job.frame[y * job.frame_pitch + x];
      double p = 0.0;
      for (int k = 0; k < m; ++k) p += a[k] * static_cast<double>(basis_value(job, taps, k, y, x));
      job.store[static_cast<std::ptrdiff_t>(y) * job.nx + x] = f;
      job.out[y * job.out_pitch + x] = static_cast<T>(static_cast<double>(f) - p);
    }
}

template void whiten_frame_host<float>(const WhitenFrame<float>&, const WhitenParams&);
template void whiten_frame_host<double>(const WhitenFrame<double>&, const WhitenParams&);

}  // namespace gridflow::kernels::filter
