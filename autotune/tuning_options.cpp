#include "autotune/tuning_options.hpp"

namespace gridflow::autotune {

MeasurementPolicy TuningOptions::policy() const {
  MeasurementPolicy p;
  p.warmup_runs = 1;
  p.repeats = repeats;
  // On-line every run costs real steps: one round of winner against runner-up catches a close call.
  p.recheck_rounds = 1;
  return p;
}

std::string to_string(TuningMode mode) {
  switch (mode) {
    case TuningMode::online: return "online";
    case TuningMode::cached: return "cached";
    case TuningMode::off: break;
  }
  return "off";
}

std::string to_string(TuningStrategy strategy) {
  switch (strategy) {
    case TuningStrategy::automatic: return "auto";
    case TuningStrategy::exhaustive: return "exhaustive";
    case TuningStrategy::local: break;
  }
  return "local";
}

}  // namespace gridflow::autotune
