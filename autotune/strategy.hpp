#pragma once
// Strategy: how the search space is explored. Each strategy is one class; the tuner hands it an
// Objective whose default configuration has been tried already.
#include <string>

#include "autotune/objective.hpp"

namespace gridflow::autotune {

class Strategy {
 public:
  virtual ~Strategy() = default;
  /// Short name for reports ("exhaustive", "coordinate-descent").
  virtual std::string name() const = 0;
  /// Calls objective.cost on legal configurations of objective.space() until it is done.
  virtual void search(Objective& objective) = 0;
};

}  // namespace gridflow::autotune
