#pragma once
// Steppable<T, Dim>: a computation the RunLoop advances: a time-stepped run, or an iterative
// solve whose own rule says when it is done. It knows nothing of observers.
#include <cstdint>
#include <vector>

#include "app/loop/field_access.hpp"
#include "mesh/device.hpp"

namespace gridflow::app {

template <class T, int Dim>
class Steppable {
 public:
  virtual ~Steppable() = default;
  virtual std::int64_t step() const = 0;
  /// The step it ends at by its own rule at the latest.
  virtual std::int64_t last_step() const = 0;
  virtual double time() const = 0;  ///< model time; 0 without
  virtual double dt() const = 0;    ///< model time per step; 0 without
  /// Ended by its own rule (its last step, convergence).
  virtual bool finished() const = 0;
  /// Takes the steps to `target` (step() < target <= last_step()), fewer when it finishes first,
  /// and returns when they are done on every rank: the loop's clock then measures the slowest.
  /// Collective.
  virtual void advance_to(std::int64_t target) = 0;
  /// Once, when the run ends (finished, or stopped early), before the observers' last acts:
  /// leaves the final state in the fields. Collective.
  virtual void conclude() {}
  /// The fields as they stand, read-only, with the stream their work is queued on.
  virtual std::vector<NamedField<T, Dim>> fields() const = 0;
  virtual StreamHandle stream() const = 0;
};

}  // namespace gridflow::app
