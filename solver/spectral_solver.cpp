#include "solver/spectral_solver.hpp"

#include <mpi.h>

#include <optional>
#include <utility>
#include <vector>

#include "kernels/stencil/dirichlet_lift.hpp"
#include "kernels/stencil/jacobi.hpp"
#include "mesh/check.hpp"
#include "solver/phase_timer.hpp"
#include "solver/poisson_problem.hpp"

namespace gridflow::solver {

template <class T>
SpectralSolver<T>::SpectralSolver(const PoissonContext& context)
    : m_context(context),
      m_transform(context.decomposition, context.space, context.stream, context.transport),
      m_eigenvalues(context.decomposition.grid(), context.space, context.stream) {
  const auto& grid = context.decomposition.grid();
  m_k = kernels::stencil::poisson_coefficients<T>(grid.spacing(0), grid.spacing(1), grid.spacing(2));
  if (!m_transform.local() && !m_transform.owned_interior().empty())
    m_rhs = std::make_unique<mesh::Field<T, 3>>(m_transform.owned_interior(), 0, context.space, "spectral_rhs");
  kernels::stencil::prepare_dirichlet_lift<T>(context.space);
  // The set-up queued on the stream (the transforms' zeroed buffers, the eigenvalue tables) ends
  // here, not inside the first timed solve.
  mesh::synchronize(context.space, context.stream);
}

namespace {

/// A solve of one step, the direct solve.
template <class T>
class SpectralSolve final : public PoissonSolve<T> {
 public:
  SpectralSolve(const mesh::Field<T, 3>& u, std::function<SolveReport()> solve_directly,
                std::function<void(const ResidualRecord&)> progress)
      : m_u(u), m_solve_directly(std::move(solve_directly)), m_progress(std::move(progress)) {}

  std::int64_t advance(std::int64_t count) override {
    if (count <= 0 || finished()) return 0;
    m_report = m_solve_directly();
    m_done = true;
    if (m_progress) m_progress(m_report.history.back());
    return 1;
  }
  bool finished() const override { return m_done; }
  std::int64_t step() const override { return m_done ? 1 : 0; }
  const std::vector<ResidualRecord>& history() const override { return m_report.history; }
  const mesh::Field<T, 3>& iterate() const override { return m_u; }
  SolveReport finish() override { return m_report; }

 private:
  const mesh::Field<T, 3>& m_u;
  std::function<SolveReport()> m_solve_directly;
  std::function<void(const ResidualRecord&)> m_progress;
  SolveReport m_report;
  bool m_done = false;
};

}  // namespace

template <class T>
std::unique_ptr<PoissonSolve<T>> SpectralSolver<T>::start(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, double b_norm,
                                                          std::function<void(const ResidualRecord&)> progress) {
  return std::make_unique<SpectralSolve<T>>(u, [this, &u, &f, b_norm] { return solve_directly(u, f, b_norm); },
                                            std::move(progress));
}

template <class T>
SolveReport SpectralSolver<T>::solve_directly(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, double b_norm) {
  const auto& c = m_context;
  const auto& d = c.decomposition;
  const auto& grid = d.grid();
  GRIDFLOW_REQUIRE(u.owned() == d.owned() && u.space() == c.space, "spectral solve: u is not this rank's field in " +
                                                                        mesh::to_string(c.space) + " memory");
  const double t0 = MPI_Wtime();
  const auto& interior = m_transform.owned_interior();

  const double scale = 8.0 / (static_cast<double>(grid.n[0]) * static_cast<double>(grid.n[1]) * static_cast<double>(grid.n[2]));
  // Timed with events on the stream (no synchronisation between phases), read at the end. One
  // rank: the division runs between the z transforms (in one pass over memory where the z plan is
  // fused), so the phases are "forward x, y", "z, divide, z" and "inverse y, x".
  const bool local = m_transform.local();
  const std::vector<const char*> names =
      local ? std::vector<const char*>{"lift", "forward x, y", "z, divide, z", "inverse y, x", "residual"}
            : std::vector<const char*>{"lift", "forward", "divide", "inverse", "residual"};
  std::vector<std::pair<const char*, PhaseTimer>> phases;
  for (const char* name : names) phases.emplace_back(name, PhaseTimer(c.space, c.stream));
  auto phase = [&](int i) { return PhaseScope(phases[static_cast<std::size_t>(i)].second); };
  double residual_squared = 0;
  if (local) {
    // One rank: b, its coefficients and the solution all live in u's interior points, transformed
    // in place (the lift reads only u's boundary points): no copies, about 9 passes over u (7
    // with a fused z plan). (A lift inside the first x transform's loads was tried: its boundary
    // reads and index arithmetic made that transform slower than the separate lift, 3.78 ms
    // against 1.36 + 1.89 ms on 513^3 double, H200.)
    if (!interior.empty()) {
      { auto p = phase(0); kernels::stencil::dirichlet_lift(u, f, interior, grid.n, m_k, u, c.stream); }
      std::optional<PhaseScope> timing;
      m_transform.solve_in_place(u, m_eigenvalues.tables(), static_cast<T>(scale), [&](int stage) {
        timing.reset();
        timing.emplace(phases[static_cast<std::size_t>(stage) + 1].second);
      });
    }
  } else {
    { auto p = phase(0); if (m_rhs) kernels::stencil::dirichlet_lift(u, f, interior, grid.n, m_k, *m_rhs, c.stream); }
    { auto p = phase(1); m_transform.forward(m_rhs.get()); }
    {
      auto p = phase(2);
      if (auto* coefficients = m_transform.coefficients())
        kernels::fft::divide_by_eigenvalues(*coefficients, m_transform.coefficient_box(), m_eigenvalues.tables(),
                                            static_cast<T>(scale), c.stream);
    }
    { auto p = phase(3); m_transform.inverse(u); }
  }
  {
    auto p = phase(4);
    // The residual needs the neighbours' new interior values in u's ghosts.
    if (d.size() > 1) {
      if (!m_halo || m_halo_ghost != u.ghost_width()) {
        m_halo = std::make_unique<halo::HaloExchange<T, 3>>(d, u, 1, c.transport, c.stream, m_transform.nccl_comm());
        m_halo_ghost = u.ghost_width();
      }
      m_halo->exchange(u);
    }
    residual_squared = kernels::stencil::residual_norm_squared(u, f, interior, m_k, c.stream);
  }
  SolveReport report;
  report.relative_residual = global_norm(residual_squared, d.comm()) / b_norm;
  report.iterations = 1;
  report.converged = report.relative_residual <= c.config.tolerance;
  report.seconds = MPI_Wtime() - t0;
  report.history.push_back({1, report.relative_residual, report.seconds});
  for (auto& [name, timer] : phases) report.phases.emplace_back(name, timer.seconds());
  return report;
}

template class SpectralSolver<float>;
template class SpectralSolver<double>;

}  // namespace gridflow::solver
