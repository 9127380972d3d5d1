#pragma once
// Exhaustive: every legal configuration, once. The reference for small spaces (tens to a few
// hundred configurations), and the yardstick the local search is tested against.
#include "autotune/strategy.hpp"

namespace gridflow::autotune {

class Exhaustive final : public Strategy {
 public:
  std::string name() const override { return "exhaustive"; }
  void search(Objective& objective) override;
};

}  // namespace gridflow::autotune
