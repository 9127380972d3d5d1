#include "solver/jacobi_iteration.hpp"

#include <cmath>

#include <mpi.h>

#include <algorithm>
#include <sstream>
#include <utility>

#include "mesh/check.hpp"
#include "solver/poisson_problem.hpp"

namespace gridflow::solver {

template <class T>
JacobiIteration<T>::JacobiIteration(const PoissonContext& context, mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f,
                                    double b_norm, std::function<void(const ResidualRecord&)> progress,
                                    const JacobiTunables& tunables)
    : m_context(context),
      m_u_in(u),
      m_f(f),
      m_b_norm(b_norm),
      m_progress(std::move(progress)),
      m_other(u.owned(), u.ghost_width(), u.space(), "u_next"),
      m_u(&u),
      m_v(&m_other),
      m_halos(context.decomposition, context.transport, context.stream),
      m_start(MPI_Wtime()) {
  const auto& grid = context.decomposition.grid();
  m_k = kernels::stencil::poisson_coefficients<T>(grid.spacing(0), grid.spacing(1), grid.spacing(2));
  m_other.copy_from(u);  // the boundary values, which sweeps never write
  set_tunables(tunables);
}

template <class T>
void JacobiIteration<T>::set_tunables(const JacobiTunables& tunables) {
  const auto& d = m_context.decomposition;
  check_deep_halo("Jacobi solver", tunables, m_u_in.ghost_width(), m_u_in.space(), d.size());
  if (!tunables.cuda.valid()) throw Error("Jacobi solver: invalid CUDA parameters");
  if (tunables.fused_steps > kernels::stencil::JacobiCudaParams::max_fused_sweeps)
    throw Error("Jacobi solver: " + std::to_string(tunables.fused_steps) + " fused sweeps: a launch takes at most " +
                std::to_string(kernels::stencil::JacobiCudaParams::max_fused_sweeps));
  if (m_u_in.space() == mesh::MemorySpace::device)
    for (int n = 2; n <= tunables.fused_steps; ++n)  // every launch a solve may take
      if (kernels::stencil::jacobi_fused_sweeps_at_most(n) == n && !tunables.cuda.fits_sweeps(n, sizeof(T))) {
        std::ostringstream os;
        os << "Jacobi solver: " << tunables.cuda << " cannot take " << n
           << " fused sweeps (its tile is too small for the rims or too large for shared memory)";
        throw Error(os.str());
      }
  m_halos.set_transport(tunables.transport);
  m_halos.prepare(*m_u, tunables.ghost_width);  // outside the sweeps, which the tuner times
  m_tunables = tunables;
}

template <class T>
std::int64_t JacobiIteration<T>::advance(std::int64_t count) {
  const auto& c = m_context;
  const auto& d = c.decomposition;
  const auto& grid = d.grid();
  const bool several = d.size() > 1;
  const auto owned_interior = d.owned().intersect(grid.interior());
  const std::int64_t max = c.config.max_iterations, every = c.config.check_every;
  const std::int64_t first = m_done, end = m_done + std::min(count, std::max<std::int64_t>(0, max - m_done));
  while (m_done < end && !finished()) {
    // A cycle (on one rank, everything up to the next check) ends on the next check, so the
    // checking sweep is a reach-0 sweep, taken alone with its fused residual; the sweeps before it
    // go in launches of up to fused_steps, each writing the overlap the next one reads.
    const std::int64_t next_check = (m_done / every + 1) * every;
    const std::int64_t to_check = std::min(end, next_check) - m_done;
    const std::int64_t cycle = several ? std::min<std::int64_t>(m_tunables.ghost_width, to_check) : to_check;
    const bool checks = m_done + cycle == next_check || m_done + cycle == max;
    m_halos.exchange(*m_u, m_tunables.ghost_width);
    for (std::int64_t q = 0; q < cycle - (checks ? 1 : 0);) {
      const int n = kernels::stencil::jacobi_fused_sweeps_at_most(
          static_cast<int>(std::min<std::int64_t>(m_tunables.fused_steps, cycle - (checks ? 1 : 0) - q)));
      const std::int64_t reach = several ? cycle - q - n : 0;  // of the launch's last sweep
      const auto update = d.owned().grow(reach).intersect(grid.interior());
      kernels::stencil::jacobi_sweeps(*m_u, *m_v, m_f, n, update, grid.interior(), m_k, m_tunables.cuda, c.stream);
      std::swap(m_u, m_v);
      m_done += n;
      q += n;
    }
    if (checks) {
      // The residual of the sweep's input, u after m_done sweeps.
      const double sum = kernels::stencil::jacobi_sweep_with_residual(*m_u, *m_v, m_f, owned_interior, owned_interior, m_k,
                                                                      m_tunables.cuda, c.stream);
      const double r = global_norm(sum, d.comm()) / m_b_norm;
      const ResidualRecord record{m_done, r, MPI_Wtime() - m_start};
      m_report.history.push_back(record);
      if (m_progress) m_progress(record);
      m_report.relative_residual = r;
      if (r <= c.config.tolerance) m_report.converged = true;
      if (!std::isfinite(r)) break;  // stop at this sweep: the solve has failed
      std::swap(m_u, m_v);
      ++m_done;
    }
  }
  return m_done - first;
}

template <class T>
SolveReport JacobiIteration<T>::finish() {
  const auto& d = m_context.decomposition;
  if (m_u != &m_u_in) m_u_in.copy_from(*m_u);  // both are on the same device: a device-to-device copy
  // The residual of what is returned, exactly.
  m_halos.exchange(m_u_in, m_tunables.ghost_width);
  const auto owned_interior = d.owned().intersect(d.grid().interior());
  const double sum = kernels::stencil::residual_norm_squared(m_u_in, m_f, owned_interior, m_k, m_context.stream);
  m_report.relative_residual = global_norm(sum, d.comm()) / m_b_norm;
  m_report.converged = m_report.relative_residual <= m_context.config.tolerance;
  m_report.iterations = m_done;
  m_report.seconds = MPI_Wtime() - m_start;
  return m_report;
}

template <class T>
void JacobiIteration<T>::restore(std::int64_t step, std::vector<ResidualRecord> history,
                                 const std::vector<std::pair<std::string, double>>&) {
  m_done = step;
  m_report.history = std::move(history);
  m_report.relative_residual = m_report.history.empty() ? 0 : m_report.history.back().relative_residual;
  m_report.converged = false;
  if (!m_report.history.empty()) m_start = MPI_Wtime() - m_report.history.back().seconds;  // seconds go on from there
}

template <class T>
std::vector<std::pair<std::string, std::int64_t>> JacobiIteration<T>::tuning_choice() const {
  return {{"tuning.ghost_width", m_tunables.ghost_width},
          {"tuning.transport", static_cast<std::int64_t>(m_tunables.transport)},
          {"tuning.block_x", m_tunables.cuda.block_x},
          {"tuning.block_y", m_tunables.cuda.block_y},
          {"tuning.cells_z", m_tunables.cuda.cells_z},
          {"tuning.cells_x", m_tunables.cuda.cells_x},
          {"tuning.shared_tile", m_tunables.cuda.shared_tile ? 1 : 0},
          {"tuning.cells_y", m_tunables.cuda.cells_y},
          {"tuning.chunk_z", m_tunables.cuda.chunk_z},
          {"tuning.fused_steps", m_tunables.fused_steps}};
}

template <class T>
void JacobiIteration<T>::apply_tuning_choice(const std::vector<std::pair<std::string, std::int64_t>>& choice) {
  JacobiTunables t = m_tunables;
  for (const auto& [name, value] : choice) {
    if (name == "tuning.ghost_width") t.ghost_width = static_cast<int>(value);
    else if (name == "tuning.transport") t.transport = static_cast<halo::Transport>(value);
    else if (name == "tuning.block_x") t.cuda.block_x = static_cast<int>(value);
    else if (name == "tuning.block_y") t.cuda.block_y = static_cast<int>(value);
    else if (name == "tuning.cells_z") t.cuda.cells_z = static_cast<int>(value);
    else if (name == "tuning.cells_x") t.cuda.cells_x = static_cast<int>(value);
    else if (name == "tuning.shared_tile") t.cuda.shared_tile = value != 0;
    else if (name == "tuning.cells_y") t.cuda.cells_y = static_cast<int>(value);
    else if (name == "tuning.chunk_z") t.cuda.chunk_z = static_cast<int>(value);
    else if (name == "tuning.fused_steps") t.fused_steps = static_cast<int>(value);
  }
  set_tunables(t);
  mark_tuning_end();
}

template <class T>
void JacobiIteration<T>::mark_tuning_end() {
  m_tuning_end.emplace(m_tunables.ghost_width, exchanges_by_width());
}

template <class T>
std::optional<GhostWidthUse> JacobiIteration<T>::ghost_width_use() const {
  if (!m_tuning_end) return std::nullopt;
  return solver::ghost_width_use(m_tuning_end->first, m_tuning_end->second, exchanges_by_width());
}

template class JacobiIteration<float>;
template class JacobiIteration<double>;

}  // namespace gridflow::solver
