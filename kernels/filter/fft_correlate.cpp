#include "kernels/filter/fft_correlate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "kernels/core/copy_from_host.hpp"
#include "kernels/core/space_dispatch.hpp"
#include "kernels/filter/fft_correlate_cuda.hpp"
#include "kernels/filter/fft_correlate_point.hpp"
#include "kernels/filter/filter_passes.hpp"
#include "mesh/check.hpp"

namespace gridflow::kernels::filter {

namespace {

using fft::Complex;
using fft::FftDirection;
using fft::FftKind;
using fft::FftLayout;

/// Values one group holds at most (real buffer plus spectrum, in T): a few MB on the host, where
/// a transform is no cheaper for a longer batch, 2^24 on the device, where launches are the cost.
constexpr long long host_group_values = 1LL << 18;
constexpr long long device_group_values = 1LL << 24;

/// op(q) for q = 0..n-1 on the host, or the CUDA launch of it on `stream`.
template <class Op>
void for_each_value(mesh::MemorySpace space, long long n, const Op& op, StreamHandle stream) {
  core::run_on_space(
      "filter::fft", space, stream,
      [&] {
        for (long long q = 0; q < n; ++q) op(q);
      },
      [&](auto) { launch_fft_step_cuda(op, n, stream); });
}

}  // namespace

template <int Dim>
std::vector<std::array<double, 2>> fft_transfer_function(const std::vector<double>& w, const std::array<int, Dim>& shape,
                                                         const FftTiling<Dim>& t) {
  // Along transformed axis k: L[k] points, K[k] weights, stride[k] between weights in w.
  long long L[3] = {1, 1, 1}, K[3] = {1, 1, 1}, stride[3] = {0, 0, 0};
  for (int k = 0; k < t.transformed; ++k) {
    const int d = t.axis[k];
    L[k] = t.length[d];
    K[k] = shape[d];
    stride[k] = 1;
    for (int e = 0; e < d; ++e) stride[k] *= shape[e];
  }
  const long long half = L[0] / 2 + 1;
  // exp(+2 pi i m / L) for m = 0..L-1 per axis: conj of the forward transform's roots.
  auto roots = [](long long n) {
    std::vector<std::array<double, 2>> r(static_cast<std::size_t>(n));
    for (long long m = 0; m < n; ++m) r[m] = {std::cos(2 * M_PI * m / n), std::sin(2 * M_PI * m / n)};
    return r;
  };
  const auto r0 = roots(L[0]), r1 = roots(L[1]), r2 = roots(L[2]);
  using C = std::array<double, 2>;
  auto mac = [](C& s, double wr, double wi, const C& root) {
    s[0] += wr * root[0] - wi * root[1];
    s[1] += wr * root[1] + wi * root[0];
  };
  // One axis at a time: a[j2][j1][k0], then b[j2][k1][k0], then h[k2][k1][k0].
  std::vector<C> a(static_cast<std::size_t>(K[2] * K[1] * half), C{0, 0});
  for (long long j2 = 0; j2 < K[2]; ++j2)
    for (long long j1 = 0; j1 < K[1]; ++j1)
      for (long long k0 = 0; k0 < half; ++k0) {
        C& s = a[(j2 * K[1] + j1) * half + k0];
        for (long long j0 = 0; j0 < K[0]; ++j0) mac(s, w[j0 * stride[0] + j1 * stride[1] + j2 * stride[2]], 0.0, r0[(k0 * j0) % L[0]]);
      }
  std::vector<C> b(static_cast<std::size_t>(K[2] * L[1] * half), C{0, 0});
  for (long long j2 = 0; j2 < K[2]; ++j2)
    for (long long k1 = 0; k1 < L[1]; ++k1)
      for (long long j1 = 0; j1 < K[1]; ++j1)
        for (long long k0 = 0; k0 < half; ++k0) {
          const C& v = a[(j2 * K[1] + j1) * half + k0];
          mac(b[(j2 * L[1] + k1) * half + k0], v[0], v[1], r1[(k1 * j1) % L[1]]);
        }
  const double scale = 1.0 / static_cast<double>(L[0] * L[1] * L[2]);
  std::vector<C> h(static_cast<std::size_t>(L[2] * L[1] * half), C{0, 0});
  for (long long k2 = 0; k2 < L[2]; ++k2)
    for (long long j2 = 0; j2 < K[2]; ++j2)
      for (long long q = 0; q < L[1] * half; ++q) {
        const C& v = b[j2 * L[1] * half + q];
        mac(h[k2 * L[1] * half + q], v[0], v[1], r2[(k2 * j2) % L[2]]);
      }
  for (C& v : h) v = {v[0] * scale, v[1] * scale};
  return h;
}

template <class T, int Dim>
double fft_error_bound(const FilterWeights<Dim>& w, long long longest_transform, double max_abs) {
  auto sum = [](const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += std::abs(x);
    return s;
  };
  double weight_sum = 1;
  if (!w.separable) weight_sum = sum(w.full);
  else
    for (int d = 0; d < Dim; ++d) weight_sum *= sum(w.axis[d]);
  const double passes = w.separable ? static_cast<double>(active_axes(w).size()) : 1.0;
  const double log_length = std::max(1.0, std::ceil(std::log2(static_cast<double>(std::max(longest_transform, 2LL)))));
  return 8.0 * std::numeric_limits<T>::epsilon() * log_length * passes * weight_sum * max_abs;
}

/// The transforms of one group (plans and buffers), made for the group size once.
template <class T, int Dim>
struct FftCorrelation<T, Dim>::Plans {
  std::unique_ptr<fft::FftPlan<T>> r2c, c2r, forward1, inverse1, forward2, inverse2;
  mesh::Buffer real, spectrum;
  long long l1 = 1, l2 = 1, half = 1;
};

template <class T, int Dim>
FftCorrelation<T, Dim>::FftCorrelation(std::vector<double> w, const std::array<int, Dim>& shape, const mesh::Box<Dim>& global,
                                       const Boundary& boundary, long long requested_tile, bool flow_graph, mesh::MemorySpace space)
    : m_weights(std::move(w)),
      m_shape(shape),
      m_boundary(boundary),
      m_global(global),
      m_tiling(make_fft_tiling<Dim>(shape, global, requested_tile)),
      m_flow_graph(flow_graph),
      m_space(space) {
  // Blocks per group: a function of the tiling and the space alone (see the header).
  long long global_blocks = 1;
  for (int d = 0; d < Dim; ++d)
    global_blocks *= m_tiling.is_transformed(d) ? (global.extent(d) + m_tiling.tile[d] - 1) / m_tiling.tile[d] : global.extent(d);
  const long long per_block = m_tiling.real_points() + 2 * m_tiling.spectrum_points();
  const long long budget = space == mesh::MemorySpace::host ? host_group_values : device_group_values;
  m_group = std::clamp(budget / per_block, 1LL, global_blocks);
}

template <class T, int Dim>
FftCorrelation<T, Dim>::~FftCorrelation() = default;

template <class T, int Dim>
typename FftCorrelation<T, Dim>::Plans& FftCorrelation<T, Dim>::plans(StreamHandle stream) {
  if (m_plans) return *m_plans;
  auto p = std::make_unique<Plans>();
  const FftTiling<Dim>& t = m_tiling;
  const long long l0 = t.length[t.axis[0]];
  p->half = l0 / 2 + 1;
  p->l1 = t.transformed > 1 ? t.length[t.axis[1]] : 1;
  if constexpr (Dim == 3) p->l2 = t.transformed > 2 ? t.length[t.axis[2]] : 1;
  const long long g = m_group, rows = g * p->l1 * p->l2;
  auto make = [&](const FftLayout& l) {
    fft::FftTunables tunables = fft::default_fft_tunables(m_space);
    if (m_space == mesh::MemorySpace::device && m_flow_graph && fft::supports(fft::FftBackend::flow_graph, l))
      tunables = {fft::FftBackend::flow_graph, ""};
    return fft::make_fft_plan<T>(l, m_space, stream, tunables);
  };
  auto strided = [](long long n, long long batch, long long stride, FftDirection direction) {
    FftLayout l;
    l.n = n;
    l.batch = batch;
    l.direction = direction;
    l.stride = stride;
    l.in_distance = l.out_distance = 1;
    return l;
  };
  FftLayout forward;
  forward.n = l0;
  forward.batch = rows;
  forward.kind = FftKind::r2c;
  forward.in_distance = l0;
  forward.out_distance = p->half;
  FftLayout inverse = forward;
  inverse.kind = FftKind::c2r;
  inverse.direction = FftDirection::inverse;
  inverse.in_distance = p->half;
  inverse.out_distance = l0;
  p->r2c = make(forward);
  p->c2r = make(inverse);
  if (t.transformed > 1) {
    p->forward1 = make(strided(p->l1, g * p->half, g * p->half, FftDirection::forward));
    p->inverse1 = make(strided(p->l1, g * p->half, g * p->half, FftDirection::inverse));
  }
  if (t.transformed > 2) {
    p->forward2 = make(strided(p->l2, p->l1 * g * p->half, p->l1 * g * p->half, FftDirection::forward));
    p->inverse2 = make(strided(p->l2, p->l1 * g * p->half, p->l1 * g * p->half, FftDirection::inverse));
  }
  p->real = mesh::Buffer(static_cast<std::size_t>(rows * l0) * sizeof(T), m_space);
  p->spectrum = mesh::Buffer(static_cast<std::size_t>(rows * p->half) * sizeof(Complex<T>), m_space);
  const fft::FftBackend library = p->r2c->tunables().backend;
  m_library = library == fft::FftBackend::fftw ? "fftw" : library == fft::FftBackend::cufft ? "cufft" : "flow_graph";
  m_stream = stream;

  const auto h = fft_transfer_function<Dim>(m_weights, m_shape, t);
  std::vector<Complex<T>> values(h.size());
  for (std::size_t i = 0; i < h.size(); ++i) values[i] = {static_cast<T>(h[i][0]), static_cast<T>(h[i][1])};
  m_transfer = mesh::Buffer(values.size() * sizeof(Complex<T>), m_space);
  core::copy_from_host(m_transfer.data(), m_space, values.data(), m_transfer.bytes(), stream);
  m_plans = std::move(p);
  return *m_plans;
}

template <class T, int Dim>
void FftCorrelation<T, Dim>::apply(const mesh::FieldView<const T, Dim>& in, const mesh::FieldView<T, Dim>& out, const mesh::Box<Dim>& box,
                                   StreamHandle stream) {
  if (box.empty()) return;
  Plans& p = plans(stream);
  GRIDFLOW_REQUIRE(stream == m_stream, "filter::fft: device plans run on the stream of the first apply; another stream was given");
  FftBlocks<Dim> g;
  g.t = m_tiling;
  g.blocks = 1;
  for (int d = 0; d < Dim; ++d) {
    if (m_tiling.is_transformed(d)) {
      g.first[d] = (box.lo[d] - m_global.lo[d]) / m_tiling.tile[d];
      g.count[d] = (box.hi[d] - m_global.lo[d]) / m_tiling.tile[d] - g.first[d] + 1;
    } else {
      g.first[d] = box.lo[d];
      g.count[d] = box.extent(d);
    }
    g.box_lo[d] = box.lo[d];
    g.box_hi[d] = box.hi[d];
    g.blocks *= g.count[d];
  }
  g.group = m_group;
  const long long reals = m_group * m_tiling.real_points(), spectra = m_group * m_tiling.spectrum_points();
  T* real = static_cast<T*>(p.real.data());
  auto* spectrum = static_cast<Complex<T>*>(p.spectrum.data());
  const Extension<Dim> e = extension_of(m_global, m_boundary.mode);
  const T cval = static_cast<T>(m_boundary.cval);
  const long long plane1 = p.l1 * m_group * p.half;  // spectrum values per index of the third transformed axis
  for (g.group_start = 0; g.group_start < g.blocks; g.group_start += m_group) {
    for_each_value(m_space, reals, FftGather<T, Dim>{in, e, cval, g, real}, stream);
    p.r2c->execute(real, spectrum);
    if (p.forward1)
      for (long long z = 0; z < p.l2; ++z) p.forward1->execute(spectrum + z * plane1, spectrum + z * plane1);
    if (p.forward2) p.forward2->execute(spectrum, spectrum);
    for_each_value(m_space, spectra, FftMultiply<T, Dim>{g, static_cast<const Complex<T>*>(m_transfer.data()), spectrum}, stream);
    if (p.inverse2) p.inverse2->execute(spectrum, spectrum);
    if (p.inverse1)
      for (long long z = 0; z < p.l2; ++z) p.inverse1->execute(spectrum + z * plane1, spectrum + z * plane1);
    p.c2r->execute(spectrum, real);
    for_each_value(m_space, reals, FftScatter<T, Dim>{g, real, out}, stream);
  }
}

template double fft_error_bound<float, 2>(const FilterWeights<2>&, long long, double);
template double fft_error_bound<double, 2>(const FilterWeights<2>&, long long, double);
template double fft_error_bound<float, 3>(const FilterWeights<3>&, long long, double);
template double fft_error_bound<double, 3>(const FilterWeights<3>&, long long, double);
template class FftCorrelation<float, 2>;
template class FftCorrelation<double, 2>;
template class FftCorrelation<float, 3>;
template class FftCorrelation<double, 3>;
template std::vector<std::array<double, 2>> fft_transfer_function<2>(const std::vector<double>&, const std::array<int, 2>&,
                                                                    const FftTiling<2>&);
template std::vector<std::array<double, 2>> fft_transfer_function<3>(const std::vector<double>&, const std::array<int, 3>&,
                                                                    const FftTiling<3>&);

}  // namespace gridflow::kernels::filter
