#include "app/deck/diagnostics_deck.hpp"

#include "mesh/check.hpp"

namespace gridflow::app {

DiagnosticsConfig read_diagnostics(Deck& deck, const std::vector<std::string>& fields) {
  DiagnosticsConfig config;
  const std::size_t count = deck.blocks("diagnostics");
  for (std::size_t i = 0; i < count; ++i) {
    const std::string block = "diagnostics[" + std::to_string(i) + "]";
    deck.string(block + ".kind", std::nullopt, {"spectrum"});
    SpectrumDiagnosticConfig spectrum;
    spectrum.field = deck.string(block + ".field", std::nullopt, fields);
    spectrum.every = deck.integer(block + ".every", 1);
    if (spectrum.every < 1)
      throw InputError("key '" + block + ".every': " + std::to_string(spectrum.every) +
                       " must be >= 1 (output files between spectra)");
    for (std::size_t j = 0; j < config.spectra.size(); ++j)
      if (config.spectra[j].field == spectrum.field)
        throw InputError("key '" + block + ".field': the spectrum of '" + spectrum.field +
                         "' is asked for twice (the other in an earlier [[diagnostics]] block)");
    config.spectra.push_back(spectrum);
  }
  return config;
}

}  // namespace gridflow::app
