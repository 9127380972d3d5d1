#include "solver/ghost_width_plan.hpp"

#include <algorithm>

#include "autotune/ghost_width_tuning.hpp"

namespace gridflow::solver {

int GhostWidthPlan::capacity() const {
  int widest = requested;
  for (const int w : candidates) widest = std::max(widest, w);
  return widest;
}

template <int Dim>
GhostWidthPlan plan_ghost_width(const RunOptions& run, const mesh::Decomposition<Dim>& decomposition,
                                long long max_width) {
  GhostWidthPlan plan;
  plan.requested = run.halo_width;
  plan.candidates = autotune::ghost_width_candidates(run.tuning, run.halo_width_given, decomposition, max_width);
  return plan;
}

template GhostWidthPlan plan_ghost_width<2>(const RunOptions&, const mesh::Decomposition<2>&, long long);
template GhostWidthPlan plan_ghost_width<3>(const RunOptions&, const mesh::Decomposition<3>&, long long);

}  // namespace gridflow::solver
