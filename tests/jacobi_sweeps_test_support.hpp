#pragma once
// Fields and boxes for testing jacobi_sweeps (k sweeps in one call) against k sweeps taken one by
// one on whole buffers: the cases of a single rank (every sweep on the interior) and of a deep-halo
// cycle (boxes that shrink by one per sweep, cut by the grid's boundary on some sides); and a
// Jacobi solve with chosen tunables.
#include <cmath>
#include <memory>
#include <optional>
#include <string>

#include "kernels/stencil/jacobi.hpp"
#include "mesh/field.hpp"
#include "poisson_test_support.hpp"
#include "solver/jacobi_solver.hpp"

namespace gridflow::testing {

struct JacobiSweepsCase {
  std::string name;
  mesh::Box<3> update;  ///< the last sweep's box
  mesh::Box<3> active;  ///< what any sweep may write
};

/// A rank's box (sizes not multiples of any tile) with `ghost` layers, and the two cases for up to
/// `ghost` sweeps: the grid's whole interior, and a rank in a corner of the grid (boundary on the
/// low-x and high-y sides, neighbours elsewhere).
struct JacobiSweepsSetup {
  static constexpr int ghost = 8;
  mesh::Box<3> owned{{0, 0, 0}, {69, 44, 36}};
  JacobiSweepsCase cases[2] = {
      {"one rank", {{1, 1, 1}, {68, 43, 35}}, {{1, 1, 1}, {68, 43, 35}}},
      {"corner rank", {{1, 0, 0}, {69, 43, 36}}, {{1, -20, -20}, {100, 43, 60}}},
  };
};

/// Values of no pattern a sweep could hide, in every point of the ghosted box.
template <class T>
void fill_jacobi_fields(mesh::Field<T, 3>& u, mesh::Field<T, 3>& f) {
  const auto g = u.ghosted();
  for (auto k = g.lo[2]; k <= g.hi[2]; ++k)
    for (auto j = g.lo[1]; j <= g.hi[1]; ++j)
      for (auto i = g.lo[0]; i <= g.hi[0]; ++i) {
        u(i, j, k) = static_cast<T>(std::sin(0.3 * i + 0.1 * k) * std::cos(0.2 * j) + 0.01 * k);
        f(i, j, k) = static_cast<T>(std::cos(0.1 * i + 0.05 * j * k));
      }
}

/// `sweeps` sweeps from `in` on whole host buffers, one by one: sweep s on
/// jacobi_sweep_box(sweeps, s, ...), the buffers swapping after each; the last iterate.
template <class T>
mesh::Field<T, 3> sweeps_one_by_one(const mesh::Field<T, 3>& in, const mesh::Field<T, 3>& f, int sweeps,
                                    const JacobiSweepsCase& c, const kernels::stencil::PoissonCoefficients<T>& k) {
  mesh::Field<T, 3> a(in.owned(), in.ghost_width(), mesh::MemorySpace::host), b(in.owned(), in.ghost_width(), mesh::MemorySpace::host);
  a.copy_from(in);
  b.copy_from(in);
  for (int s = 0; s < sweeps; ++s) {
    kernels::stencil::jacobi_sweep(a, b, f, kernels::stencil::jacobi_sweep_box(sweeps, s, c.update, c.active), k, {}, nullptr);
    std::swap(a, b);
  }
  return a;
}

/// Points of `got` that differ from `expect` on `update` or from `before` elsewhere in the ghosted box.
template <class T>
std::size_t sweeps_differences(const mesh::Field<T, 3>& got, const mesh::Field<T, 3>& expect, const mesh::Field<T, 3>& before,
                               const mesh::Box<3>& update) {
  std::size_t differ = 0;
  const auto g = got.ghosted();
  for (auto k = g.lo[2]; k <= g.hi[2]; ++k)
    for (auto j = g.lo[1]; j <= g.hi[1]; ++j)
      for (auto i = g.lo[0]; i <= g.hi[0]; ++i) {
        const T want = update.contains(mesh::Box<3>{{i, j, k}, {i, j, k}}) ? expect(i, j, k) : before(i, j, k);
        differ += !(got(i, j, k) == want);
      }
  return differ;
}

}  // namespace gridflow::testing

namespace gridflow::testing {

/// A Jacobi solve of `config` over `comm` whose tunables are the defaults changed by
/// adjust(JacobiTunables&) (sweeps per launch, tile), gathered on every rank.
template <class T, class Adjust>
PoissonResult<T> solve_jacobi_adjusted(const solver::PoissonConfig& config, MPI_Comm comm, mesh::MemorySpace space,
                                       Adjust&& adjust) {
  return solve_gathered_with<T>(config, comm, space, halo::Transport::mpi, [&](const solver::PoissonContext& context) {
    auto t = solver::default_jacobi_tunables(context);
    adjust(t);
    return std::make_unique<solver::JacobiSolver<T>>(context, std::nullopt, t);
  });
}

}  // namespace gridflow::testing
