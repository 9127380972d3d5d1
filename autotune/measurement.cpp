#include "autotune/measurement.hpp"

#include <algorithm>

#include "mesh/check.hpp"

namespace gridflow::autotune {

void MeasurementPolicy::validate() const {
  if (warmup_runs < 0 || repeats < 1 || recheck_rounds < 0)
    throw Error("measurement policy: warmup_runs = " + std::to_string(warmup_runs) + ", repeats = " +
                std::to_string(repeats) + ", recheck_rounds = " + std::to_string(recheck_rounds) +
                " (need >= 0, >= 1, >= 0)");
}

double Measurement::median_s() const { return median(samples_s); }

double median(std::vector<double> values) {
  if (values.empty()) throw Error("median of no values");
  const std::size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid), values.end());
  const double upper = values[mid];
  if (values.size() % 2 == 1) return upper;
  const double lower = *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid));
  return 0.5 * (lower + upper);
}

}  // namespace gridflow::autotune
