#include "solver/cg_multigrid_solver.hpp"

#include <mpi.h>

#include <cmath>
#include <utility>
#include <vector>

#include "kernels/stencil/jacobi.hpp"
#include "solver/multigrid_solve_fields.hpp"

namespace gridflow::solver {

namespace {
template <class T>
kernels::stencil::PoissonCoefficients<T> coefficients_of(const mesh::Grid<3>& g) {
  return kernels::stencil::poisson_coefficients<T>(g.spacing(0), g.spacing(1), g.spacing(2));
}
}  // namespace

template <class T>
CgMultigridSolver<T>::CgMultigridSolver(const PoissonContext& context)
    : m_context(context),
      m_multigrid(context),
      m_cg(context.decomposition, m_multigrid.hierarchy().plan(0).ghost, context.space,
           coefficients_of<T>(context.decomposition.grid()), context.transport, context.stream,
           m_multigrid.hierarchy().nccl()) {}

namespace {

/// CG on u and f in the multigrid layout (MultigridSolveFields).
template <class T>
class CgMultigridSolve final : public PoissonSolve<T> {
 public:
  CgMultigridSolve(const PoissonContext& context, MultigridSolver<T>& multigrid, ConjugateGradient<T>& cg,
                   mesh::Field<T, 3>& u_in, const mesh::Field<T, 3>& f_in, double b_norm,
                   std::function<void(const ResidualRecord&)> progress)
      : m_context(context),
        m_cg(cg),
        m_progress(std::move(progress)),
        m_start(MPI_Wtime()),
        m_fields(multigrid, context, u_in, f_in, "cg") {
    // With multigrid.full_multigrid, step 1 is the full multigrid pass added to u as the multigrid
    // solver does it (not a CG step with its line search and its direction kept): CG then starts
    // from there, a cycle a step. At 513^3 CG after the pass takes 3 steps where CG whose first
    // direction was the pass took 4, with the same cycles: one step's vector passes fewer.
    if (context.config.multigrid.full_multigrid && context.config.max_iterations > 0) {
      const double initial = multigrid.residual_norm(m_fields.u(), m_fields.f()) / b_norm;
      if (initial > context.config.tolerance && std::isfinite(initial)) {
        record({0, initial, MPI_Wtime() - m_start});
        multigrid.improve(m_fields.u(), m_fields.f(), true, true);
        m_offset = 1;
      }
    }
    const typename ConjugateGradient<T>::Options options{context.config.tolerance, context.config.max_iterations - m_offset,
                                                         b_norm};
    auto on_iteration = [this](std::int64_t iteration, double relative) {
      record({iteration + m_offset, relative, MPI_Wtime() - m_start});
    };
    if (multigrid.mixed()) {
      // Mixed precision: CG rounds r for the float cycle as it updates r and reads the cycle's
      // float z directly (bitwise the same iterates, 20 bytes a point an iteration less).
      typename ConjugateGradient<T>::RoundedPreconditioner rounded;
      rounded.r = &multigrid.rounded_residual();
      rounded.z = &multigrid.rounded_correction();
      rounded.apply = [&multigrid] { multigrid.precondition_rounded(); };
      m_cg.start(m_fields.u(), m_fields.f(), options, std::move(rounded), std::move(on_iteration));
      return;
    }
    m_cg.start(
        m_fields.u(), m_fields.f(), options,
        [&multigrid](const mesh::Field<T, 3>& r, mesh::Field<T, 3>& z) { multigrid.precondition(r, z); },
        std::move(on_iteration));
  }

  std::int64_t advance(std::int64_t count) override {
    const std::int64_t before = m_cg.iterations();
    while (m_cg.iterations() - before < count && m_cg.iterate()) {
    }
    return m_cg.iterations() - before;
  }
  bool finished() const override { return m_cg.finished(); }
  std::int64_t step() const override { return m_cg.iterations() + m_offset; }
  const std::vector<ResidualRecord>& history() const override { return m_history; }
  const mesh::Field<T, 3>& iterate() const override { return m_fields.u(); }
  std::vector<std::pair<std::string, mesh::Field<T, 3>*>> state_fields() override {
    return {{"u", &m_fields.u()}, {"cg_r", &m_cg.residual_field()}, {"cg_p", &m_cg.direction_field()}};
  }
  std::vector<std::pair<std::string, double>> state_scalars() const override { return m_cg.state_scalars(); }
  void restore(std::int64_t step, std::vector<ResidualRecord> history,
               const std::vector<std::pair<std::string, double>>& scalars) override {
    m_cg.restore(step - m_offset, scalars);
    m_history = std::move(history);
    if (!m_history.empty()) m_start = MPI_Wtime() - m_history.back().seconds;
  }

  SolveReport finish() override {
    const auto result = m_cg.finish();
    m_fields.finish();
    SolveReport report;
    report.history = m_history;
    report.converged = result.converged;
    report.iterations = result.iterations + m_offset;
    report.relative_residual = result.relative_residual;
    report.seconds = MPI_Wtime() - m_start;
    return report;
  }

 private:
  void record(const ResidualRecord& entry) {
    m_history.push_back(entry);
    if (m_progress) m_progress(entry);
  }

  PoissonContext m_context;
  ConjugateGradient<T>& m_cg;
  std::function<void(const ResidualRecord&)> m_progress;
  double m_start;
  MultigridSolveFields<T> m_fields;
  std::vector<ResidualRecord> m_history;
  std::int64_t m_offset = 0;  // 1 where step 1 was the full multigrid pass
};

}  // namespace

template <class T>
std::unique_ptr<PoissonSolve<T>> CgMultigridSolver<T>::start(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, double b_norm,
                                                             std::function<void(const ResidualRecord&)> progress) {
  return std::make_unique<CgMultigridSolve<T>>(m_context, m_multigrid, m_cg, u, f, b_norm, std::move(progress));
}

template class CgMultigridSolver<float>;
template class CgMultigridSolver<double>;

}  // namespace gridflow::solver
