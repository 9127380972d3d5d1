#pragma once
// The deck's [[diagnostics]] blocks: what a run computes from its fields and writes into its
// output files beside them. One kind so far:
//
//   [[diagnostics]]
//   kind = "spectrum"   # the radially binned power spectrum (transform/power_spectrum.hpp)
//   field = "u"         # a field the run writes
//   every = 1           # in output files: the 1st, (every+1)-th, ... file of the run gets it
#include <cstdint>
#include <string>
#include <vector>

#include "app/deck/deck.hpp"

namespace gridflow::app {

struct SpectrumDiagnosticConfig {
  std::string field;
  std::int64_t every = 1;  ///< >= 1, in output files
};

struct DiagnosticsConfig {
  std::vector<SpectrumDiagnosticConfig> spectra;
};

/// Reads every [[diagnostics]] block; `fields` are the names the run writes. Throws InputError
/// naming the key (diagnostics[i].kind, ...) for a missing or unknown kind, an unknown field, an
/// `every` below 1, or a second spectrum of one field; unknown keys in a block are left to
/// Deck::require_all_used.
DiagnosticsConfig read_diagnostics(Deck& deck, const std::vector<std::string>& fields);

}  // namespace gridflow::app
