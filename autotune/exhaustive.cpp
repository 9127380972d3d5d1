#include "autotune/exhaustive.hpp"

namespace gridflow::autotune {

void Exhaustive::search(Objective& objective) {
  for (const Configuration& c : objective.space().enumerate()) objective.cost(c);
}

}  // namespace gridflow::autotune
