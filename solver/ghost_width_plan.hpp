#pragma once
// GhostWidthPlan: the ghost widths a deep-halo run (heat, Jacobi) may use, settled collectively
// before its fields are allocated, so that the deck's halo.width, the tuner's candidates and the
// fields' ghost layers come from one place. The run starts with the width the deck asks for (or
// the default); when the deck leaves halo.width unset, tuning is on and there are several ranks,
// the tuner chooses among the candidates; the fields get ghost layers for the widest of them all.
#include <climits>
#include <vector>

#include "mesh/decomposition.hpp"
#include "solver/run_options.hpp"

namespace gridflow::solver {

struct GhostWidthPlan {
  int requested = 1;            ///< halo.width as the deck set it, or its default: an untuned run's width
  std::vector<int> candidates;  ///< the widths the tuner tries, two or more; empty: the width is not tuned
  bool tuned() const { return !candidates.empty(); }
  /// Ghost layers the fields get: the widest width the run may exchange.
  int capacity() const;
};

/// `run`'s halo.width, and as candidates 1, 2, 4, 8 up to the fewest points a rank owns along an
/// axis and up to `max_width` (Jacobi: poisson.check_every, since a cycle never crosses a check), on
/// several ranks, when tuning is on and the deck leaves halo.width unset; no candidates when fewer
/// than two remain. Collective over the decomposition's communicator.
template <int Dim>
GhostWidthPlan plan_ghost_width(const RunOptions& run, const mesh::Decomposition<Dim>& decomposition,
                                long long max_width = LLONG_MAX);

extern template GhostWidthPlan plan_ghost_width<2>(const RunOptions&, const mesh::Decomposition<2>&, long long);
extern template GhostWidthPlan plan_ghost_width<3>(const RunOptions&, const mesh::Decomposition<3>&, long long);

}  // namespace gridflow::solver
