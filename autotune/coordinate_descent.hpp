#pragma once
// CoordinateDescent: budgeted local search for spaces too large to time exhaustively.
//
// From the default configuration, each parameter in turn is walked along its values (the others
// fixed) as long as that finds cheaper configurations; a sweep that moved is extrapolated along
// its net displacement (Hooke-Jeeves' pattern move). Where no single parameter improves, pairs of
// parameters are walked together, which follows valleys across the axes (a fixed bx*by) and
// constraint boundaries. When nothing improves, the search restarts from the untried legal
// configuration farthest from all tried ones, until the budget is spent. A configuration is
// tried at most once, and only when legal.
#include <cstddef>
#include <cstdint>

#include "autotune/strategy.hpp"

namespace gridflow::autotune {

struct CoordinateDescentOptions {
  std::size_t budget = 30;  ///< configurations tried in all (measured or rejected), the default included
  /// A walk goes on through costs up to this fraction above the best it has seen, so a plateau, or
  /// a few percent of timing noise, does not stop it at the first step.
  double tolerance = 0.05;
  std::uint64_t seed = 1;  ///< restart points are drawn from this seed: runs are reproducible
};

class CoordinateDescent final : public Strategy {
 public:
  explicit CoordinateDescent(CoordinateDescentOptions options = {});
  std::string name() const override { return "coordinate-descent"; }
  void search(Objective& objective) override;

 private:
  CoordinateDescentOptions m_options;
};

}  // namespace gridflow::autotune
