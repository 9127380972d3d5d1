#pragma once
// DeepHaloSteps: the on-line tuner's view of a deep-halo solver (HeatSolver, JacobiIteration),
// whose tunables are a DeepHaloTunables. A configuration's parameters map onto it one to one:
// the launch shape (read by `cuda_of(c)` when `c` has "block_x"), "fused_steps", "ghost_width",
// and "nccl" for the transport (1: NCCL, 0: MPI). online_tuning.hpp says why every configuration
// moves the solver forward bitwise as an untuned run would.
#include <cstdint>
#include <type_traits>
#include <utility>

#include "autotune/online_tuning.hpp"
#include "autotune/transport_tuning.hpp"

namespace gridflow::solver {

template <class Solver, class CudaOf>
class DeepHaloSteps final : public autotune::SteppedRun {
 public:
  DeepHaloSteps(Solver& solver, CudaOf cuda_of) : m_solver(solver), m_base(solver.tunables()), m_cuda_of(cuda_of) {}
  std::int64_t step() const override { return m_solver.step(); }
  /// Parameters `c` lacks keep the values they had when the tuning began.
  void apply(const autotune::Configuration& c) override {
    auto tunables = m_base;
    if (c.has("block_x")) tunables.cuda = m_cuda_of(c);
    if (c.has("fused_steps")) tunables.fused_steps = c.at("fused_steps");
    if (c.has("ghost_width")) tunables.ghost_width = c.at("ghost_width");
    tunables.transport = autotune::halo_transport_of(c, tunables.transport);
    m_solver.set_tunables(tunables);
  }
  std::int64_t advance(std::int64_t count) override {
    const std::int64_t before = m_solver.step();
    m_solver.advance(count);
    return m_solver.step() - before;
  }

 private:
  Solver& m_solver;
  std::decay_t<decltype(std::declval<Solver&>().tunables())> m_base;
  CudaOf m_cuda_of;
};

}  // namespace gridflow::solver
