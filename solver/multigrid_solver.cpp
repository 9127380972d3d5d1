#include "solver/multigrid_solver.hpp"

#include <mpi.h>

#include <cmath>
#include <type_traits>
#include <utility>

#include "kernels/multigrid/mixed_precision.hpp"
#include "kernels/multigrid/vector_ops.hpp"
#include "solver/multigrid_solve_fields.hpp"

namespace gridflow::solver {

namespace mg = kernels::multigrid;

template <class T>
MultigridSolver<T>::MultigridSolver(const PoissonContext& context)
    : m_context(context),
      m_hierarchy(context),
      m_updated(context.decomposition.owned().intersect(context.decomposition.grid().interior())) {
  if (std::is_same_v<T, double> && context.config.multigrid.mixed_precision) {
    m_mixed = std::make_unique<MultigridHierarchy<float>>(context);
    m_mixed_r = m_mixed->make_finest_field("mg_residual_float");
    m_mixed_e = m_mixed->make_finest_field("mg_correction_float");
  }
}

template <class T>
double MultigridSolver<T>::residual_norm(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f) {
  return m_mixed ? m_hierarchy.residual_norm(u, f, *m_mixed_r) : m_hierarchy.residual_norm(u, f);
}

template <class T>
void MultigridSolver<T>::improve(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, bool first, bool residual_kept) {
  const bool full = first && m_context.config.multigrid.full_multigrid;
  if (!m_mixed) {
    if (full)
      m_hierarchy.full_multigrid(u, f);
    else
      m_hierarchy.cycle(u, f);
    return;
  }
  if constexpr (std::is_same_v<T, double>) {
    if (!residual_kept) m_hierarchy.residual_norm(u, f, *m_mixed_r);
    m_mixed->correction_from_zero(*m_mixed_e, *m_mixed_r, full);
    mg::add_correction(*m_mixed_e, u, m_updated, m_context.stream);
  }
}

namespace {

/// Cycles on u and f in the layout the grid transfers need (MultigridSolveFields).
template <class T>
class MultigridSolve final : public PoissonSolve<T> {
 public:
  MultigridSolve(const PoissonContext& context, MultigridSolver<T>& multigrid, mesh::Field<T, 3>& u_in,
                 const mesh::Field<T, 3>& f_in, double b_norm, std::function<void(const ResidualRecord&)> progress)
      : m_context(context),
        m_multigrid(multigrid),
        m_b_norm(b_norm),
        m_progress(std::move(progress)),
        m_start(MPI_Wtime()),
        m_fields(multigrid, context, u_in, f_in, "mg") {
    m_finite = record(0);
  }

  std::int64_t advance(std::int64_t count) override {
    std::int64_t taken = 0;
    for (; taken < count && !finished(); ++taken) {
      m_multigrid.improve(m_fields.u(), m_fields.f(), m_report.iterations == 0, m_residual_kept);
      ++m_report.iterations;
      m_finite = record(m_report.iterations);
    }
    return taken;
  }
  bool finished() const override {
    return !m_finite || m_report.converged || m_report.iterations >= m_context.config.max_iterations;
  }
  std::int64_t step() const override { return m_report.iterations; }
  const std::vector<ResidualRecord>& history() const override { return m_report.history; }
  const mesh::Field<T, 3>& iterate() const override { return m_fields.u(); }
  std::vector<std::pair<std::string, mesh::Field<T, 3>*>> state_fields() override { return {{"u", &m_fields.u()}}; }
  void restore(std::int64_t step, std::vector<ResidualRecord> history, const std::vector<std::pair<std::string, double>>&) override {
    m_report.iterations = step;
    m_report.history = std::move(history);
    const double r = m_report.history.empty() ? 0 : m_report.history.back().relative_residual;
    m_report.relative_residual = r;
    m_report.converged = r <= m_context.config.tolerance;
    m_finite = std::isfinite(r);
    m_residual_kept = false;  // u was restored: the residual kept by the last check is not its own
    if (!m_report.history.empty()) m_start = MPI_Wtime() - m_report.history.back().seconds;
  }

  SolveReport finish() override {
    m_fields.finish();
    m_report.seconds = MPI_Wtime() - m_start;
    return m_report;
  }

 private:
  /// Checks the residual after `cycles` cycles; false when it is no longer finite.
  bool record(std::int64_t cycles) {
    const double r = m_multigrid.residual_norm(m_fields.u(), m_fields.f()) / m_b_norm;
    m_residual_kept = true;
    const ResidualRecord entry{cycles, r, MPI_Wtime() - m_start};
    m_report.history.push_back(entry);
    if (m_progress) m_progress(entry);
    m_report.relative_residual = r;
    m_report.converged = r <= m_context.config.tolerance;
    return std::isfinite(r);
  }

  PoissonContext m_context;
  MultigridSolver<T>& m_multigrid;
  double m_b_norm;
  std::function<void(const ResidualRecord&)> m_progress;
  double m_start;
  MultigridSolveFields<T> m_fields;
  SolveReport m_report;
  bool m_finite = true;
  bool m_residual_kept = false;  // the last residual_norm() was of the current u
};

}  // namespace

template <class T>
std::unique_ptr<PoissonSolve<T>> MultigridSolver<T>::start(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, double b_norm,
                                                           std::function<void(const ResidualRecord&)> progress) {
  return std::make_unique<MultigridSolve<T>>(m_context, *this, u, f, b_norm, std::move(progress));
}

template <class T>
void MultigridSolver<T>::precondition(const mesh::Field<T, 3>& r, mesh::Field<T, 3>& e) {
  if (!m_mixed) {
    m_hierarchy.cycle_from_zero(e, r);
    return;
  }
  if constexpr (std::is_same_v<T, double>) {
    mg::convert(r, *m_mixed_r, m_updated, m_context.stream);
    precondition_rounded();
    mg::convert(*m_mixed_e, e, e.ghosted(), m_context.stream);  // ghosts and boundary too, as the double cycle leaves them
  }
}

template <class T>
void MultigridSolver<T>::precondition_rounded() {
  GRIDFLOW_REQUIRE(m_mixed != nullptr, "multigrid: precondition_rounded() is for mixed precision");
  m_mixed->cycle_from_zero(*m_mixed_e, *m_mixed_r);
}

template class MultigridSolver<float>;
template class MultigridSolver<double>;

}  // namespace gridflow::solver
