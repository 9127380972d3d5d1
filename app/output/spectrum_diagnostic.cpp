#include "app/output/spectrum_diagnostic.hpp"

#include <numeric>
#include <utility>

namespace gridflow::app {

template <class T, int Dim>
SpectrumDiagnostic<T, Dim>::SpectrumDiagnostic(const mesh::Decomposition<Dim>& decomposition,
                                               SpectrumDiagnosticConfig config)
    : m_decomposition(decomposition), m_config(std::move(config)) {}

template <class T, int Dim>
SpectrumDiagnostic<T, Dim>::~SpectrumDiagnostic() = default;

template <class T, int Dim>
std::vector<io::StepDataset> SpectrumDiagnostic<T, Dim>::datasets(std::int64_t file_index,
                                                                  const FieldAccess<T, Dim>& fields) {
  if (file_index % m_config.every != 0) return {};
  if (!m_spectrum) m_spectrum = std::make_unique<transform::RadialPowerSpectrum<T, Dim>>(m_decomposition);
  std::vector<double> power = m_spectrum->compute(fields.host(m_config.field));
  std::vector<std::int64_t> k(power.size());
  std::iota(k.begin(), k.end(), std::int64_t(0));
  return {{"spectrum/k", std::move(k)}, {"spectrum/power", std::move(power)}};
}

template class SpectrumDiagnostic<float, 2>;
template class SpectrumDiagnostic<double, 2>;
template class SpectrumDiagnostic<float, 3>;
template class SpectrumDiagnostic<double, 3>;

}  // namespace gridflow::app
