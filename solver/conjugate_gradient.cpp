#include "solver/conjugate_gradient.hpp"

#include <mpi.h>

#include <array>
#include <cmath>
#include <utility>

#include "kernels/multigrid/mixed_precision.hpp"
#include "kernels/multigrid/residual.hpp"
#include "kernels/multigrid/vector_ops.hpp"
#include "mesh/check.hpp"

namespace gridflow::solver {

namespace mg = kernels::multigrid;

namespace {
template <std::size_t N>
std::array<double, N> global_sums(const std::array<double, N>& local, MPI_Comm comm) {
  std::array<double, N> total{};
  GRIDFLOW_MPI_CHECK(MPI_Allreduce(local.data(), total.data(), static_cast<int>(N), MPI_DOUBLE, MPI_SUM, comm));
  return total;
}
}  // namespace

template <class T>
ConjugateGradient<T>::ConjugateGradient(const mesh::Decomposition<3>& decomposition, int ghost, mesh::MemorySpace space,
                                        const kernels::stencil::PoissonCoefficients<T>& k, halo::Transport transport,
                                        StreamHandle stream, std::shared_ptr<const halo::NcclComm> nccl)
    : m_decomposition(decomposition),
      m_interior(decomposition.owned().intersect(decomposition.grid().interior())),
      m_k(k),
      m_stream(stream),
      m_halo(decomposition, transport, stream, std::move(nccl)),
      m_r(decomposition.owned(), ghost, space, "cg_r"),
      m_p(decomposition.owned(), ghost, space, "cg_p"),
      m_q(decomposition.owned(), ghost, space, "cg_q") {
  GRIDFLOW_REQUIRE(ghost >= 1, "conjugate gradients need a ghost width >= 1");
}

template <class T>
double ConjugateGradient<T>::residual(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f) {
  m_halo.exchange(u, 1);
  if (m_rounded.apply)  // r for the float preconditioner too, in the same pass
    return global_sums<1>({mg::residual_and_norm(u, f, m_r, *m_rounded.r, m_interior, m_k, m_stream)}, m_decomposition.comm())[0];
  mg::residual(u, f, m_r, m_interior, m_k, m_stream);
  return global_sums<1>({mg::dot(m_r, m_r, m_interior, m_stream)}, m_decomposition.comm())[0];
}

template <class T>
double ConjugateGradient<T>::precondition() {
  const MPI_Comm comm = m_decomposition.comm();
  if (m_rounded.apply) {  // residual() rounded r
    m_rounded.apply();
    return global_sums<1>({mg::dot(m_r, *m_rounded.z, m_interior, m_stream)}, comm)[0];
  }
  if (!m_precondition) {
    m_z_in_use = &m_r;
    return m_rr;  // (r, r), from the residual() just before
  }
  if (!m_z) m_z = std::make_unique<mesh::Field<T, 3>>(m_r.owned(), m_r.ghost_width(), m_r.space(), "cg_z");
  m_precondition(m_r, *m_z);
  m_z_in_use = m_z.get();
  return global_sums<1>({mg::dot(m_r, *m_z, m_interior, m_stream)}, comm)[0];
}

template <class T>
void ConjugateGradient<T>::direction_from_preconditioned() {
  if (m_rounded.apply) {
    mg::convert(*m_rounded.z, m_p, m_interior, m_stream);
    return;
  }
  mg::copy(*m_z_in_use, m_p, m_interior, m_stream);
}

template <class T>
std::array<double, 2> ConjugateGradient<T>::preconditioned_sums() {
  const MPI_Comm comm = m_decomposition.comm();
  if (m_rounded.apply) {
    m_rounded.apply();
    return global_sums<2>(mg::dot2(m_r, *m_rounded.z, m_q, m_interior, m_stream), comm);
  }
  m_precondition(m_r, *m_z);
  return global_sums<2>(mg::dot2(m_r, *m_z, m_q, m_interior, m_stream), comm);
}

template <class T>
void ConjugateGradient<T>::update_direction(double beta) {
  if (m_rounded.apply) {
    mg::xpby(*m_rounded.z, static_cast<T>(beta), m_p, m_interior, m_stream);
    return;
  }
  mg::xpby(*m_z_in_use, static_cast<T>(beta), m_p, m_interior, m_stream);
}

template <class T>
typename ConjugateGradient<T>::Result ConjugateGradient<T>::solve(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f,
                                                                  const Options& options, const Preconditioner& m,
                                                                  const std::function<void(std::int64_t, double)>& on_iteration) {
  start(u, f, options, m, on_iteration);
  while (iterate()) {
  }
  return finish();
}

template <class T>
void ConjugateGradient<T>::start(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, const Options& options,
                                 Preconditioner precondition_with, std::function<void(std::int64_t, double)> on_iteration) {
  m_precondition = std::move(precondition_with);
  m_rounded = {};
  begin(u, f, options, std::move(on_iteration));
}

template <class T>
void ConjugateGradient<T>::start(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, const Options& options,
                                 RoundedPreconditioner precondition_with, std::function<void(std::int64_t, double)> on_iteration) {
  GRIDFLOW_REQUIRE(precondition_with.r && precondition_with.z && precondition_with.apply,
                   "conjugate gradients: the float preconditioner needs its r and z fields and its apply");
  m_precondition = {};
  m_rounded = std::move(precondition_with);
  begin(u, f, options, std::move(on_iteration));
}

template <class T>
void ConjugateGradient<T>::begin(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, const Options& options,
                                 std::function<void(std::int64_t, double)> on_iteration) {
  m_u = &u;
  m_f = &f;
  m_options = options;
  m_on_iteration = std::move(on_iteration);
  m_result = Result{};
  m_rr = residual(u, f);
  m_reference = options.reference_norm > 0 ? options.reference_norm : std::sqrt(m_rr);
  m_result.relative_residual = relative(m_rr);
  if (m_on_iteration) m_on_iteration(0, m_result.relative_residual);
  m_converged_at_start = m_rr == 0 || m_result.relative_residual <= options.tolerance;
  if (m_converged_at_start) {
    m_result.converged = true;
    m_finished = true;
    return;
  }
  m_rho = precondition();
  direction_from_preconditioned();
  m_residual_is_true = true;
  m_finished = m_result.iterations >= options.max_iterations;
}

template <class T>
bool ConjugateGradient<T>::iterate() {
  if (m_finished) return false;
  const MPI_Comm comm = m_decomposition.comm();
  m_halo.exchange(m_p, 1);
  const double pq = global_sums<1>({mg::laplacian_and_dot(m_p, m_q, m_interior, m_k, m_stream)}, comm)[0];
  if (!std::isfinite(pq)) {  // p or A p is no longer finite: this iteration's residual is not either
    ++m_result.iterations;
    m_rr = pq;
    if (m_on_iteration) m_on_iteration(m_result.iterations, relative(m_rr));
    m_finished = true;
    return false;
  }
  if (pq == 0) {  // p = 0: nothing left to gain
    m_finished = true;
    return false;
  }
  const double alpha = m_rho / pq;
  // u += alpha p, r -= alpha q and (r, r) in one pass (and r rounded for a float preconditioner).
  const T a = static_cast<T>(alpha);
  const double rr = m_rounded.apply ? mg::cg_update(a, m_p, m_q, *m_u, m_r, *m_rounded.r, m_interior, m_stream)
                                    : mg::cg_update(a, m_p, m_q, *m_u, m_r, m_interior, m_stream);
  ++m_result.iterations;
  m_rr = global_sums<1>({rr}, comm)[0];
  m_residual_is_true = false;
  if (m_on_iteration) m_on_iteration(m_result.iterations, relative(m_rr));
  m_finished = m_result.iterations >= m_options.max_iterations || !std::isfinite(m_rr);
  if (!std::isfinite(m_rr)) return false;
  if (relative(m_rr) <= m_options.tolerance) {
    // The recursive residual drifts from f - A u (most in float): confirm, and restart from
    // the true residual where the two disagree.
    m_rr = residual(*m_u, *m_f);
    m_residual_is_true = true;
    if (relative(m_rr) <= m_options.tolerance) {
      m_finished = true;
      return true;
    }
    m_rho = precondition();
    direction_from_preconditioned();
    return true;
  }
  double beta = 0;
  if (m_precondition || m_rounded.apply) {
    // The flexible beta: (z_new, r_new - r_old) / (z_old, r_old), with r_new - r_old = -alpha q.
    const auto sums = preconditioned_sums();
    beta = -alpha * sums[1] / m_rho;
    m_rho = sums[0];
  } else {
    beta = m_rr / m_rho;
    m_rho = m_rr;
  }
  update_direction(beta);
  return true;
}

template <class T>
std::vector<std::pair<std::string, double>> ConjugateGradient<T>::state_scalars() const {
  return {{"cg.rr", m_rr}, {"cg.rho", m_rho}, {"cg.residual_is_true", m_residual_is_true ? 1.0 : 0.0}};
}

template <class T>
void ConjugateGradient<T>::restore(std::int64_t iterations, const std::vector<std::pair<std::string, double>>& scalars) {
  const auto get = [&](const std::string& name) {
    for (const auto& [n, v] : scalars)
      if (n == name) return v;
    throw Error("conjugate gradients: the checkpoint has no scalar '" + name + "'");
  };
  m_rr = get("cg.rr");
  m_rho = get("cg.rho");
  m_residual_is_true = get("cg.residual_is_true") != 0;
  m_result.iterations = iterations;
  m_result.relative_residual = relative(m_rr);
  m_converged_at_start = false;
  m_finished = iterations >= m_options.max_iterations;
  if (m_precondition && !m_z) m_z = std::make_unique<mesh::Field<T, 3>>(m_r.owned(), m_r.ghost_width(), m_r.space(), "cg_z");
  m_z_in_use = m_precondition ? m_z.get() : &m_r;  // unused with a float preconditioner, which keeps its own z
}

template <class T>
typename ConjugateGradient<T>::Result ConjugateGradient<T>::finish() {
  if (m_converged_at_start) return m_result;
  if (!m_residual_is_true) m_rr = residual(*m_u, *m_f);
  m_result.relative_residual = relative(m_rr);
  m_result.converged = m_result.relative_residual <= m_options.tolerance;
  return m_result;
}

template class ConjugateGradient<float>;
template class ConjugateGradient<double>;

}  // namespace gridflow::solver
