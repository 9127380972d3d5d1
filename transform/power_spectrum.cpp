#include "transform/power_spectrum.hpp"

#include <cmath>

namespace gridflow::transform {

template <int Dim>
std::int64_t max_spectrum_bin(const std::array<mesh::Index, Dim>& points) {
  std::int64_t k2 = 0;
  for (int d = 0; d < Dim; ++d) k2 += (points[d] / 2) * (points[d] / 2);
  auto k = static_cast<std::int64_t>(std::floor(std::sqrt(static_cast<double>(k2))));
  while (k * k > k2) --k;  // exact integer floor of the square root, whatever sqrt's rounding
  while ((k + 1) * (k + 1) <= k2) ++k;
  return k;
}

namespace {

DistributedFftOptions reproducible_host_fft() {
  DistributedFftOptions o;
  o.decomposition = FftDecomposition::slab;
  o.tunables = kernels::fft::FftTunables{kernels::fft::FftBackend::fftw, ""};
  o.line_by_line = true;
  return o;
}

template <int Dim>
std::array<mesh::Index, Dim> points_per_axis(const mesh::Box<Dim>& points) {
  std::array<mesh::Index, Dim> n{};
  for (int d = 0; d < Dim; ++d) n[d] = points.extent(d);
  return n;
}

}  // namespace

template <class T, int Dim>
RadialPowerSpectrum<T, Dim>::RadialPowerSpectrum(const mesh::Decomposition<Dim>& d)
    : m_decomposition(d),
      m_fft(d, FftValues::real, mesh::MemorySpace::host, nullptr, reproducible_host_fft()),
      m_max_bin(max_spectrum_bin<Dim>(points_per_axis(d.grid().points()))) {
  const int axis = m_fft.spectrum_split_axis();
  const auto planes = m_fft.spectrum_points();
  // Table boxes: bins 0..K along x, plane indices along y.
  auto table_of = [&](const mesh::Box<Dim>& spectral) {
    mesh::Box<2> b{{0, spectral.lo[axis]}, {m_max_bin, spectral.hi[axis]}};
    if (spectral.empty()) b.hi[1] = b.lo[1] - 1;
    return b;
  };
  const mesh::Box<2> whole = table_of(planes);
  // Which planes each rank holds: rank r's box of the last stage, known on every rank.
  std::vector<mesh::Box<2>> from, to(static_cast<std::size_t>(d.size()), whole);
  const auto stages = plan_fft_stages<Dim>(d.grid().points(), FftValues::real, FftDecomposition::slab, d.size());
  for (const auto& b : stages.stages.back().boxes) from.push_back(table_of(b));
  if (!from[d.rank()].empty())
    m_table = std::make_unique<mesh::Field<double, 2>>(from[d.rank()], 0, mesh::MemorySpace::host, "spectrum_planes");
  m_all = std::make_unique<mesh::Field<double, 2>>(whole, 0, mesh::MemorySpace::host, "spectrum_all_planes");
  m_gather = std::make_unique<halo::BoxRedistribution<double, 2>>(d.comm(), from, to, mesh::MemorySpace::host, nullptr);
}

template <class T, int Dim>
RadialPowerSpectrum<T, Dim>::~RadialPowerSpectrum() = default;

template <class T, int Dim>
void RadialPowerSpectrum<T, Dim>::bin_planes() {
  const auto* spectrum = m_fft.spectrum();
  if (!spectrum || !m_table) return;
  const auto box = m_fft.spectrum_box();
  const auto n = points_per_axis(m_decomposition.grid().points());
  const auto values = spectrum->view();
  auto table = m_table->view();
  for (mesh::Index p = m_table->owned().lo[1]; p <= m_table->owned().hi[1]; ++p)
    for (mesh::Index b = 0; b <= m_max_bin; ++b) table(b, p) = 0.0;
  // |U|^2 of one half-spectrum point, with the weight of its mirror image, into its plane's row.
  auto add = [&](mesh::Index plane, std::int64_t k2, mesh::Index i, double re, double im) {
    const auto bin = spectrum_bin(k2);
    if (bin > m_max_bin) return;
    const double weight = (i == 0 || 2 * i == n[0]) ? 1.0 : 2.0;
    table(bin, plane) += weight * (re * re + im * im);
  };
  if constexpr (Dim == 2) {  // planes of one x index
    for (mesh::Index i = box.lo[0]; i <= box.hi[0]; ++i)
      for (mesh::Index j = box.lo[1]; j <= box.hi[1]; ++j) {
        const auto fj = frequency(j, n[1]);
        add(i, i * i + fj * fj, i, values(2 * i, j), values(2 * i + 1, j));
      }
  } else {  // planes of one y index
    for (mesh::Index j = box.lo[1]; j <= box.hi[1]; ++j) {
      const auto fj = frequency(j, n[1]);
      for (mesh::Index k = box.lo[2]; k <= box.hi[2]; ++k) {
        const auto fk = frequency(k, n[2]);
        for (mesh::Index i = box.lo[0]; i <= box.hi[0]; ++i)
          add(j, i * i + fj * fj + fk * fk, i, values(2 * i, j, k), values(2 * i + 1, j, k));
      }
    }
  }
}

template <class T, int Dim>
std::vector<double> RadialPowerSpectrum<T, Dim>::compute(const mesh::Field<T, Dim>& values) {
  m_fft.forward(values);
  bin_planes();
  m_gather->apply(m_table.get(), m_all.get());
  const auto all = m_all->view();
  const auto planes = m_all->owned();
  double total = 1.0;
  for (int d = 0; d < Dim; ++d) total *= static_cast<double>(m_decomposition.grid().n[d] + 1);
  std::vector<double> power(static_cast<std::size_t>(m_max_bin + 1), 0.0);
  for (mesh::Index b = 0; b <= m_max_bin; ++b) {
    double sum = 0.0;
    for (mesh::Index p = planes.lo[1]; p <= planes.hi[1]; ++p) sum += all(b, p);
    power[b] = sum / (total * total);
  }
  return power;
}

template std::int64_t max_spectrum_bin<2>(const std::array<mesh::Index, 2>&);
template std::int64_t max_spectrum_bin<3>(const std::array<mesh::Index, 3>&);
template class RadialPowerSpectrum<float, 2>;
template class RadialPowerSpectrum<double, 2>;
template class RadialPowerSpectrum<float, 3>;
template class RadialPowerSpectrum<double, 3>;

}  // namespace gridflow::transform
