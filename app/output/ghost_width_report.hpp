#pragma once
// GhostWidthReport: the ghost width of a run under the names every report uses, so that the lines
// rank 0 prints, /Info of the output files and the --summary JSON cannot disagree:
//
//   halo.width.requested  the deck's halo.width, or its default: what /Input holds as halo.width
//   halo.width.chosen     what the tuning settled on: its choice when it tuned the width (measured
//                         or from the cache), else the requested width
//   halo.width.ran        the width of the ghost exchanges made after the tuning, read from the
//                         exchanges themselves; the chosen width when none was made (one rank)
//   halo.exchanges        how many exchanges that was
//   halo.width.allocated  ghost layers of the fields: the widest width the run could take
//
// chosen, ran and exchanges are known once the tuning has ended, and only for the deep-halo
// solvers (heat, Jacobi); multigrid, CG-multigrid and spectral do not step at halo.width.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "io/attribute.hpp"
#include "solver/deep_halo.hpp"
#include "solver/ghost_width_plan.hpp"

namespace gridflow::app {

struct GhostWidthReport {
  solver::GhostWidthPlan plan;
  std::optional<solver::GhostWidthUse> use;  ///< set once the tuning has ended (deep-halo solvers)

  /// The values known, under the names above, in that order.
  std::vector<std::pair<std::string, std::int64_t>> entries() const;
  /// The entries as /Info attributes.
  io::Attributes attributes() const;
  /// "halo.width.requested = 1, halo.width.chosen = 4, ...": the entries as one line.
  std::string text() const;
  /// The set-up line's part, before the tuning: requested and allocated, and the candidates when
  /// the width is tuned.
  std::string setup_text() const;
};

}  // namespace gridflow::app
