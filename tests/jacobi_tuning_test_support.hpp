#pragma once
// A Jacobi solve with on-line tuning, in-process, set up as gridflow run sets one up: the
// exchange widths to try, fields with ghost layers for all of them, the solver sweeping with the
// deck's halo.width until the tuning decides; the tuning's outcome and u gathered on every rank.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <string>

#include "heat_tuning_test_support.hpp"
#include "poisson_test_support.hpp"
#include "solver/jacobi_solver.hpp"

namespace gridflow::testing {

template <class T>
struct TunedJacobiSolve {
  std::optional<autotune::OnlineTuningResult> tuning;  ///< nullopt when the solver never tuned
  PoissonResult<T> solve;
};

/// `transport`: what halo.transport resolved to (the tuner tries the other one when the deck says
/// "auto" and this is NCCL).
template <class T>
TunedJacobiSolve<T> solve_jacobi_tuned(const solver::PoissonConfig& config, MPI_Comm comm,
                                       mesh::MemorySpace space = mesh::MemorySpace::host,
                                       halo::Transport transport = halo::Transport::mpi) {
  const auto& dims = config.run.decomposition;
  // The split does not depend on the ghost width: this decomposition owns what the solve's will.
  const mesh::Decomposition<3> split(config.grid, comm, {dims[0], dims[1], dims[2]}, config.run.halo_width);
  const auto ghost_width = solver::plan_jacobi_ghost_width(config, split);
  TunedJacobiSolve<T> out;
  out.solve = solve_gathered_with<T>(
      config, comm, space, transport,
      [&](const solver::PoissonContext& c) {
        return std::make_unique<solver::JacobiSolver<T>>(
            c, solver::JacobiOnlineTuning{ghost_width, [&](const autotune::OnlineTuningResult& r) { out.tuning = r; }});
      },
      ghost_width.capacity());
  return out;
}

/// Counts the places where two solves differ: u bitwise, the iteration count, convergence, and
/// the residual history: its iterations exactly, its relative residuals to within
/// `residual_rtol` relative (0: bitwise).
template <class T>
std::size_t solve_differences(const PoissonResult<T>& a, const PoissonResult<T>& b, double residual_rtol = 0) {
  const auto& ha = a.report.history;
  const auto& hb = b.report.history;
  std::size_t differ = a.u.size() != b.u.size() || a.report.iterations != b.report.iterations ||
                       a.report.converged != b.report.converged || ha.size() != hb.size();
  for (std::size_t q = 0; q < std::min(a.u.size(), b.u.size()); ++q) differ += a.u[q] != b.u[q];
  for (std::size_t h = 0; h < std::min(ha.size(), hb.size()); ++h)
    differ += ha[h].iteration != hb[h].iteration || !(std::abs(ha[h].relative_residual - hb[h].relative_residual) <=
                                                      residual_rtol * std::abs(hb[h].relative_residual));
  return differ;
}

}  // namespace gridflow::testing
