#pragma once
// FiniteCheck<T, Dim>: the observer that ends a run with a RunError when a value of its field
// stops being finite (NaN or infinite) on any rank. It reads the flag the stepper's kernels raise
// as they write (kernels/core/non_finite_flag.hpp: the first step and global point), so a check
// costs 8 bytes from the device and one small MPI_Allreduce, and it checks at every step boundary
// the loop makes: before any output or checkpoint of that step is written (add it first), at
// progress steps, every `every` steps, and at the end. The run stops at the step of the first
// non-finite value's boundary at the latest; the files written before hold finite values only.
#include <mpi.h>

#include <cstdint>
#include <string>
#include <utility>

#include "app/loop/observer.hpp"
#include "kernels/core/non_finite_flag.hpp"
#include "mesh/grid.hpp"
#include "solver/phase_timer.hpp"

namespace gridflow::app {

/// Collective over `comm`: throws the same RunError on every rank when `flag` holds a non-finite
/// value on any rank. The message names `field`, the step, its time (step * dt), the global point
/// and its coordinates, and ends with `hint`. Reading a device flag waits for `stream`.
template <int Dim>
void throw_if_non_finite(const kernels::core::NonFiniteFlag& flag, StreamHandle stream, MPI_Comm comm,
                         const mesh::Grid<Dim>& grid, double dt, const std::string& field, const std::string& hint);

template <class T, int Dim>
class FiniteCheck final : public Observer<T, Dim> {
 public:
  /// `flag` (which must outlive this) is the stepper's, its work queued on `stream`; `hint` ends
  /// the message: what a non-finite field points at in this run.
  FiniteCheck(std::int64_t every, const kernels::core::NonFiniteFlag& flag, StreamHandle stream, std::string field,
              std::string hint)
      : m_every(every), m_flag(flag), m_stream(stream), m_field(std::move(field)), m_hint(std::move(hint)) {}

  std::string name() const override { return "finite check"; }
  std::int64_t next_step(const RunState<T, Dim>& state) const override { return next_multiple(state.step, m_every); }
  bool acts_at_every_boundary() const override { return true; }
  bool acts_at_end() const override { return true; }
  /// Collective; throws the same RunError on every rank.
  void act(const RunState<T, Dim>& state, RunControl& control) override;

  double seconds() { return m_timer.seconds(); }

 private:
  std::int64_t m_every;
  const kernels::core::NonFiniteFlag& m_flag;
  StreamHandle m_stream;
  std::string m_field;
  std::string m_hint;
  solver::PhaseTimer m_timer{mesh::MemorySpace::host, nullptr};
};

extern template class FiniteCheck<float, 2>;
extern template class FiniteCheck<double, 2>;
extern template class FiniteCheck<float, 3>;
extern template class FiniteCheck<double, 3>;

}  // namespace gridflow::app
