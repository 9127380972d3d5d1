#pragma once
// ConjugateGradient<T>: (preconditioned) conjugate gradients on the interior unknowns of the
// 7-point system A u = f, distributed: dot products of this rank's owned interior points in
// double, summed with MPI_Allreduce over the decomposition's communicator.
//
// A is negative definite; CG's iterates are the same as for -A u = -f, so the usual formulas
// apply unchanged (with a preconditioner that approximates A^{-1}, negative definite too).
// With a preconditioner, beta is the flexible (Polak-Ribiere) one, (z_new, r_new - r_old) /
// (z_old, r_old): a preconditioner that is slightly non-linear or non-symmetric (an inexact
// coarse solve, unequal pre/post smoothing) then still converges at the same rate.
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "halo/nccl_comm.hpp"
#include "halo/transport.hpp"
#include "kernels/stencil/poisson_point.hpp"
#include "mesh/decomposition.hpp"
#include "mesh/field.hpp"
#include "halo/halo_exchange_set.hpp"

namespace gridflow::solver {

template <class T>
class ConjugateGradient {
 public:
  /// z ~ A^{-1} r on the owned interior points; z's other points are its own business (the
  /// solver only reads z there). Both fields have the solver's layout.
  using Preconditioner = std::function<void(const mesh::Field<T, 3>& r, mesh::Field<T, 3>& z)>;

  /// A preconditioner that works in float on fields of its own (mixed-precision multigrid in a
  /// double solve): the solver rounds r into `r` as it updates r, and reads z in float from `z`
  /// where it would read its own z, so no pass over memory converts either. `apply` sets z ~
  /// A^{-1} r on the owned interior points. Both fields have the solver's owned box; the iterates
  /// are bitwise those of a Preconditioner that rounds r, applies the same cycle and widens z.
  struct RoundedPreconditioner {
    mesh::Field<float, 3>* r = nullptr;
    mesh::Field<float, 3>* z = nullptr;
    std::function<void()> apply;
  };

  struct Options {
    double tolerance = 1e-8;           ///< on ||f - A u|| / reference
    std::int64_t max_iterations = 100;
    double reference_norm = 0;         ///< 0: the norm of the initial residual
  };

  struct Result {
    std::int64_t iterations = 0;
    double relative_residual = 0;  ///< of the returned u, recomputed from u (not the recursive residual)
    bool converged = false;
  };

  /// Collective over decomposition.comm(), which must outlive the solver. Every field passed to
  /// solve() has owned box decomposition.owned(), ghost width `ghost` (>= 1) and lives in `space`.
  ConjugateGradient(const mesh::Decomposition<3>& decomposition, int ghost, mesh::MemorySpace space,
                    const kernels::stencil::PoissonCoefficients<T>& k, halo::Transport transport, StreamHandle stream,
                    std::shared_ptr<const halo::NcclComm> nccl = nullptr);

  /// Improves u (boundary points hold the Dirichlet values, which stay) until the relative
  /// residual is under the tolerance or max_iterations are done. `on_iteration(i, rel)` is told
  /// the (recursive) relative residual after iteration i, and of the initial guess as i = 0.
  /// Collective; blocks.
  Result solve(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, const Options& options, const Preconditioner& precondition = {},
               const std::function<void(std::int64_t, double)>& on_iteration = {});

  /// solve() a step at a time, for a caller that stops between iterations: start() measures the
  /// initial residual (told as iteration 0), iterate() takes one iteration unless the solve has
  /// ended, finish() recomputes the residual from u where needed. solve() is exactly these calls.
  /// One solve at a time; u, f and the functions must stay alive until finish().
  void start(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, const Options& options, Preconditioner precondition = {},
             std::function<void(std::int64_t, double)> on_iteration = {});
  /// start() with a preconditioner in float.
  void start(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, const Options& options, RoundedPreconditioner precondition,
             std::function<void(std::int64_t, double)> on_iteration = {});
  /// Returns whether it took an iteration (false once the solve has ended). Collective.
  bool iterate();
  /// Converged, max_iterations done, or no direction left to search.
  bool finished() const { return m_finished; }
  std::int64_t iterations() const { return m_result.iterations; }
  /// The state between two iterations, for a checkpoint: the residual and search direction fields
  /// (u is the caller's) and the scalars. restore() puts the scalars and the iteration count back
  /// after start() and after the fields were written back.
  mesh::Field<T, 3>& residual_field() { return m_r; }
  mesh::Field<T, 3>& direction_field() { return m_p; }
  std::vector<std::pair<std::string, double>> state_scalars() const;
  void restore(std::int64_t iterations, const std::vector<std::pair<std::string, double>>& scalars);
  /// Collective. Call once, after the last iterate().
  Result finish();

 private:
  /// r = f - A u and its global squared norm; with a float preconditioner, r rounded for it too.
  double residual(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f);
  /// z = M r (z is r without a preconditioner) and the global (r, z), right after residual().
  double precondition();
  /// p = z.
  void direction_from_preconditioned();
  /// z = M r for the new r; returns the global {(r, z), (z, q)}.
  std::array<double, 2> preconditioned_sums();
  /// p = z + beta p.
  void update_direction(double beta);
  /// The rest of start(), once the preconditioner is set.
  void begin(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, const Options& options,
             std::function<void(std::int64_t, double)> on_iteration);
  double relative(double squared) const { return m_reference > 0 ? std::sqrt(squared) / m_reference : 0.0; }

  const mesh::Decomposition<3>& m_decomposition;
  mesh::Box<3> m_interior;  // this rank's owned interior points: the unknowns
  kernels::stencil::PoissonCoefficients<T> m_k;
  StreamHandle m_stream;
  halo::HaloExchangeSet<T, 3> m_halo;
  mesh::Field<T, 3> m_r, m_p, m_q;
  std::unique_ptr<mesh::Field<T, 3>> m_z;  // allocated on the first preconditioned solve
  mesh::Field<T, 3>* m_z_in_use = nullptr;

  // The solve in progress (start() .. finish()).
  mesh::Field<T, 3>* m_u = nullptr;
  const mesh::Field<T, 3>* m_f = nullptr;
  Options m_options;
  Preconditioner m_precondition;
  RoundedPreconditioner m_rounded;  // instead of m_precondition where its apply is set
  std::function<void(std::int64_t, double)> m_on_iteration;
  double m_reference = 0;
  double m_rr = 0;   // squared residual norm, true or recursive
  double m_rho = 0;  // (r, z)
  bool m_residual_is_true = true;  // whether m_rr was computed from u rather than recursively
  bool m_converged_at_start = false;
  bool m_finished = true;
  Result m_result;
};

extern template class ConjugateGradient<float>;
extern template class ConjugateGradient<double>;

}  // namespace gridflow::solver
