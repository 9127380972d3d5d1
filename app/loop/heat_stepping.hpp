#pragma once
// HeatStepping<T>: a heat run as the RunLoop steps it, time steps up to the run's last. Each
// advance waits for the device and then for every rank, so the loop's clock times the slowest
// rank's steps.
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "app/loop/steppable.hpp"
#include "solver/heat_solver.hpp"

namespace gridflow::app {

template <class T>
class HeatStepping final : public Steppable<T, 2> {
 public:
  /// `solver` (which must outlive this) holds the run's state; `steps` and `dt` are the run's.
  HeatStepping(solver::HeatSolver<T>& solver, std::int64_t steps, double dt, MPI_Comm comm)
      : m_solver(solver), m_steps(steps), m_dt(dt), m_comm(comm) {}

  std::int64_t step() const override { return m_solver.step(); }
  std::int64_t last_step() const override { return m_steps; }
  double time() const override { return m_solver.time(); }
  double dt() const override { return m_dt; }
  bool finished() const override { return m_solver.step() >= m_steps; }
  void advance_to(std::int64_t target) override;
  std::vector<NamedField<T, 2>> fields() const override { return {{"u", &m_solver.solution()}}; }
  StreamHandle stream() const override { return m_solver.stream(); }

 private:
  solver::HeatSolver<T>& m_solver;
  std::int64_t m_steps;
  double m_dt;
  MPI_Comm m_comm;
};

extern template class HeatStepping<float>;
extern template class HeatStepping<double>;

}  // namespace gridflow::app
