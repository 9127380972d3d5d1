#include "kernels/filter/whiten_host.hpp"

#include <algorithm>
#include <cmath>

#include "kernels/core/for_each_host.hpp"
#include "kernels/core/reduce_host.hpp"
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
T at(const T* f, int nx, int y, int x) {
  return f[static_cast<std::ptrdiff_t>(y) * nx + x];
}

// Rows y0..y1 of a frame as a box of one point a row, for core::for_each_row_host and
// core::reduce_rows_host: the rows run in parallel on the host execution space (the CPU reference is
// what `gridflow filter` and in-situ whitening run on the host), sums joined in row order, so the
// bits do not depend on the thread count. Empty where y1 < y0.
mesh::Box<2> frame_rows(int y0, int y1) { return mesh::Box<2>{{0, y0}, {0, y1}}; }

// WhitenShiftSums added term by term.
struct ShiftSumsReducer {
  using Value = WhitenShiftSums;
  static Value identity() { return {}; }
  static void join(Value& into, const Value& from) {
    into.p += from.p;
    into.q += from.q;
    into.u += from.u;
    into.v += from.v;
    into.w += from.w;
  }
  static void merge(Value& into, const Value& from) { join(into, from); }
};

// One shift pass of the reference against F at s: the residual shift (dy, dx) over the pixels
// `margin` from every edge.
template <class T>
void shift_pass(const WhitenFrame<T>& job, const double* s, int margin, double& dy, double& dx) {
  const WhitenStencil<T> st = whiten_stencil<T>(s[0], s[1]);
  const mesh::Box<2> rows = frame_rows(margin, job.ny - 1 - margin);
  const WhitenShiftSums sums = core::reduce_rows_host<ShiftSumsReducer>("filter::whiten::shift_pass", rows, [&](int y) {
    WhitenShiftSums row;
    for (int x = margin; x <= job.nx - 1 - margin; ++x) {
      const WhitenGradient d = whiten_gradient(job.frame, job.frame_pitch, y, x);
      whiten_add_shift_terms(row, d, static_cast<double>(whiten_sample(job.reference, job.nx, job.ny, job.nx, y, x, st)));
    }
    return row;
  });
  whiten_shift_update(sums, dy, dx);
}

// S_t from the reference (whiten.hpp, step 1); returns the passes run.
template <class T>
int refine_shift(const WhitenFrame<T>& job, const WhitenParams& params) {
  const double* A = job.anchor;
  const double* S = job.history;
  const double reference_abs = whiten_reference_abs(S, job.t, job.m, A);
  double s[2] = {A[0] - S[2 * (job.t - 1)], A[1] - S[2 * (job.t - 1) + 1]};
  for (int pass = 1;; ++pass) {
    const int margin = whiten_reference_margin(std::max(std::fabs(s[0]), std::fabs(s[1])), reference_abs);
    double dy, dx;
    shift_pass(job, s, margin, dy, dx);
    s[0] += dy;
    s[1] += dx;
    if (!(std::fabs(dy) >= params.tolerance_px || std::fabs(dx) >= params.tolerance_px) || pass >= params.max_refinements) {
      job.history[2 * job.t] = A[0] - s[0];
      job.history[2 * job.t + 1] = A[1] - s[1];
      return pass;
    }
  }
}

// f (pitch) registered with the shift of its frame against the anchor: dst(y, x) = f(y + sy, x + sx).
template <class T>
void register_frame(const T* f, std::ptrdiff_t pitch, int ny, int nx, double sy, double sx, T* dst) {
  const WhitenStencil<T> st = whiten_stencil<T>(sy, sx);
  core::for_each_row_host("filter::whiten::register", frame_rows(0, ny - 1), [&](int y) {
    for (int x = 0; x < nx; ++x) dst[static_cast<std::ptrdiff_t>(y) * nx + x] = whiten_sample(f, pitch, ny, nx, y, x, st);
  });
}

template <class T>
double dot(const T* a, const T* b, int ny, int nx) {
  return core::reduce_rows_host<core::Sum>("filter::whiten::dot", frame_rows(0, ny - 1), [&](int y) {
    const std::ptrdiff_t row = static_cast<std::ptrdiff_t>(y) * nx;
    double s = 0.0;
    for (std::ptrdiff_t i = row; i < row + nx; ++i) s += static_cast<double>(a[i]) * static_cast<double>(b[i]);
    return s;
  });
}

// Step 2: the anchor moves to S_t rounded once S_t leaves its reach; the history is registered
// again and (least squares) its products recomputed.
template <class T>
void follow_anchor(const WhitenFrame<T>& job, bool aligned) {
  double* A = job.anchor;
  const double* St = job.history + 2 * job.t;
  if (!whiten_anchor_moves(St[0], St[1], A)) return;
  A[0] = whiten_anchor_for(St[0]);
  A[1] = whiten_anchor_for(St[1]);
  A[2] += 1.0;
  for (int k = 0; k < job.m; ++k) {
    const double* Sk = job.history + 2 * (job.t - 1 - k);
    register_frame(job.remembered[k], job.nx, job.ny, job.nx, Sk[0] - A[0], Sk[1] - A[1], job.registered[k]);
  }
  if (!aligned) return;
  for (int k = 0; k < job.m; ++k)
    for (int l = 0; l <= k; ++l) job.set_product(job.slots[k], job.slots[l], dot(job.registered[k], job.registered[l], job.ny, job.nx));
}

// Step 3: F into its ring slot, R_t, F's row of the products, the next frame's reference.
template <class T>
void join_history(const WhitenFrame<T>& job, bool aligned) {
  core::for_each_row_host("filter::whiten::store", frame_rows(0, job.ny - 1), [&](int y) {
    for (int x = 0; x < job.nx; ++x) job.store[static_cast<std::ptrdiff_t>(y) * job.nx + x] = job.frame[y * job.frame_pitch + x];
  });
  const double* A = job.anchor;
  const double* St = job.history + 2 * job.t;
  register_frame(job.frame, job.frame_pitch, job.ny, job.nx, St[0] - A[0], St[1] - A[1], job.registered_store);
  const T* newest = aligned ? job.registered_store : job.store;  // R_t, or F
  job.set_product(job.slot, job.slot, dot(newest, newest, job.ny, job.nx));
  for (int k = 0; k < job.m; ++k)
    job.set_product(job.slot, job.slots[k], dot(newest, aligned ? job.registered[k] : job.remembered[k], job.ny, job.nx));
  const int count = job.m_next();
  const double inverse = 1.0 / count;  // a product per pixel, not a division (the CUDA join's too)
  core::for_each_row_host("filter::whiten::reference", frame_rows(0, job.ny - 1), [&](int y) {
    const std::ptrdiff_t row = static_cast<std::ptrdiff_t>(y) * job.nx;
    for (std::ptrdiff_t i = row; i < row + job.nx; ++i) {
      double sum = static_cast<double>(job.registered_store[i]);
      for (int k = 0; k + 1 < count; ++k) sum += static_cast<double>(job.registered[k][i]);
      job.reference[i] = static_cast<T>(sum * inverse);
    }
  });
}

// The weights a_k from the table (G_kl, b_k as whiten.hpp says).
template <class T>
void solve_weights(const WhitenFrame<T>& job, const WhitenParams& params, std::vector<double>& a) {
  const int m = job.m;
  std::vector<double> g(static_cast<std::size_t>(m) * m), b(m);
  for (int k = 0; k < m; ++k) {
    b[k] = job.product(job.slot, job.slots[k]);
    for (int l = 0; l < m; ++l) g[k * m + l] = job.product(job.slots[k], job.slots[l]);
  }
  a.assign(m, 0.0);
  if (params.weights == WhitenWeights::least_squares) {
    whiten_solve_ridge(g, b, m, params.ridge);
    a.assign(b.begin(), b.begin() + m);
    return;
  }
  const int terms = whiten_polynomial_terms(params.degree);
  std::vector<double> phi(static_cast<std::size_t>(m) * terms);
  for (int k = 0; k < m; ++k) whiten_monomials(job.pair_shift[2 * k], job.pair_shift[2 * k + 1], params.degree, &phi[k * terms]);
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
  for (int k = 0; k < m; ++k)
    for (int i = 0; i < terms; ++i) a[k] += phi[k * terms + i] * bp[i];
}

}  // namespace

template <class T>
void whiten_frame_host(const WhitenFrame<T>& job, const WhitenParams& params) {
  const int m = job.m;
  const bool aligned = params.weights == WhitenWeights::least_squares;
  if (m == 0) {
    job.history[2 * job.t] = 0.0;
    job.history[2 * job.t + 1] = 0.0;
    job.refinements[job.t] = 0;
    join_history(job, aligned);
    core::for_each_row_host("filter::whiten::copy", frame_rows(0, job.ny - 1), [&](int y) {
      for (int x = 0; x < job.nx; ++x) job.out[y * job.out_pitch + x] = job.frame[y * job.frame_pitch + x];
    });
    return;
  }
  job.refinements[job.t] = refine_shift(job, params);
  const double* St = job.history + 2 * job.t;
  for (int k = 0; k < m; ++k) {
    job.pair_shift[2 * k] = job.history[2 * (job.t - 1 - k)] - St[0];
    job.pair_shift[2 * k + 1] = job.history[2 * (job.t - 1 - k) + 1] - St[1];
  }
  follow_anchor(job, aligned);
  join_history(job, aligned);
  std::vector<double> a;
  solve_weights(job, params, a);
  for (int k = 0; k < m; ++k) job.weights[k] = a[k];

  std::vector<WhitenStencil<T>> stencil(m);
  for (int k = 0; k < m; ++k) stencil[k] = whiten_stencil<T>(job.pair_shift[2 * k], job.pair_shift[2 * k + 1]);
  core::for_each_row_host("filter::whiten::predict", frame_rows(0, job.ny - 1), [&](int y) {
    for (int x = 0; x < job.nx; ++x) {
      const T f = job.frame[y * job.frame_pitch + x];
      double p = 0.0;
      for (int k = 0; k < m; ++k) {
        const T basis = aligned ? whiten_sample(job.remembered[k], job.nx, job.ny, job.nx, y, x, stencil[k]) : at(job.remembered[k], job.nx, y, x);
        p += a[k] * static_cast<double>(basis);
      }
      job.out[y * job.out_pitch + x] = static_cast<T>(static_cast<double>(f) - p);
    }
  });
}

template void whiten_frame_host<float>(const WhitenFrame<float>&, const WhitenParams&);
template void whiten_frame_host<double>(const WhitenFrame<double>&, const WhitenParams&);

}  // namespace gridflow::kernels::filter
