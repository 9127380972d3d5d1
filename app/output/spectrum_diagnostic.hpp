#pragma once
// SpectrumDiagnostic<T, Dim>: the [[diagnostics]] kind "spectrum": the radially binned power
// spectrum of one of the run's fields (transform::RadialPowerSpectrum: the whole global field,
// bitwise the same at any rank count), written into the output files as /spectrum/k (int64,
// 0..K) and /spectrum/power (double).
//
// It contributes datasets to the FieldOutput observer (FieldOutput::add_datasets) rather than
// acting on its own: its values must be inside the very file the output writes at that step, and
// a run writes some steps (step 0, before an on-line tuning) outside the loop.
#include <cstdint>
#include <memory>
#include <vector>

#include "app/deck/diagnostics_deck.hpp"
#include "app/loop/field_access.hpp"
#include "app/output/field_output.hpp"
#include "io/step_dataset.hpp"
#include "mesh/decomposition.hpp"
#include "transform/power_spectrum.hpp"

namespace gridflow::app {

template <class T, int Dim>
class SpectrumDiagnostic {
 public:
  SpectrumDiagnostic(const mesh::Decomposition<Dim>& decomposition, SpectrumDiagnosticConfig config);
  ~SpectrumDiagnostic();

  /// Collective. The datasets for the run's output file number `file_index` (0: its first): the
  /// spectrum of the field's current values when file_index is a multiple of `every`, else none.
  /// Device fields are read through their host copy.
  std::vector<io::StepDataset> datasets(std::int64_t file_index, const FieldAccess<T, Dim>& fields);

 private:
  const mesh::Decomposition<Dim>& m_decomposition;
  SpectrumDiagnosticConfig m_config;
  std::unique_ptr<transform::RadialPowerSpectrum<T, Dim>> m_spectrum;  // planned at the first use
};

/// One SpectrumDiagnostic per spectrum of `diagnostics`, each added to `output`'s dataset
/// sources; the caller keeps them alive as long as `output` writes.
template <class T, int Dim>
std::vector<std::unique_ptr<SpectrumDiagnostic<T, Dim>>> attach_spectra(FieldOutput<T, Dim>& output,
                                                                        const mesh::Decomposition<Dim>& decomposition,
                                                                        const DiagnosticsConfig& diagnostics) {
  std::vector<std::unique_ptr<SpectrumDiagnostic<T, Dim>>> spectra;
  for (const auto& config : diagnostics.spectra) {
    spectra.push_back(std::make_unique<SpectrumDiagnostic<T, Dim>>(decomposition, config));
    output.add_datasets([s = spectra.back().get()](std::int64_t file_index, const FieldAccess<T, Dim>& fields) {
      return s->datasets(file_index, fields);
    });
  }
  return spectra;
}

extern template class SpectrumDiagnostic<float, 2>;
extern template class SpectrumDiagnostic<double, 2>;
extern template class SpectrumDiagnostic<float, 3>;
extern template class SpectrumDiagnostic<double, 3>;

}  // namespace gridflow::app
