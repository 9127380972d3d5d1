#include "app/loop/solve_check.hpp"

#include <fmt/format.h>

#include <cmath>

#include "mesh/check.hpp"

namespace gridflow::app {

namespace {

std::string what_to_try(const std::string& solver_name) {
  std::string options = solver_name == "cg-mg" ? "" : "solver = \"cg-mg\" (multigrid as the preconditioner of CG, which copes with "
                                                     "stretched spacing), ";
  if (solver_name != "spectral") options += "solver = \"spectral\" (a direct solve on uniform grids), ";
  return "try " + options + "more iterations (poisson.max_iterations), or a looser poisson.tolerance";
}

}  // namespace

std::string not_converged_message(const std::string& solver_name, const std::vector<solver::ResidualRecord>& history,
                                  const solver::PoissonConfig& config) {
  const double first = history.empty() ? 0 : history.front().relative_residual;
  const double last = history.empty() ? 0 : history.back().relative_residual;
  const std::int64_t iteration = history.empty() ? 0 : history.back().iteration;
  const std::string trend = history.size() > 1 && last > first
                                ? fmt::format(" (it diverges: it was {:.6e} at iteration {})", first, history.front().iteration)
                                : "";
  return fmt::format("the {} solver did not converge: relative residual {:.6e} at iteration {}{}, above poisson.tolerance = "
                     "{:.1e} when it reached poisson.max_iterations = {}; {}",
                     solver_name, last, iteration, trend, config.tolerance, config.max_iterations, what_to_try(solver_name));
}

template <class T>
void SolveCheck<T>::act(const RunState<T, 3>&, RunControl&) {
  const auto& history = m_stepping.history();
  if (history.empty() || std::isfinite(history.back().relative_residual)) return;
  const auto& bad = history.back();
  const double last_finite = history.size() > 1 ? history[history.size() - 2].relative_residual : 0;
  throw RunError(fmt::format("the {} solver failed: its relative residual is {} at iteration {}{}; no solution is written; "
                             "values overflowed {} or became NaN: {}",
                             m_solver_name, bad.relative_residual, bad.iteration,
                             history.size() > 1 ? fmt::format(" (it was {:.6e} at iteration {})", last_finite,
                                                              history[history.size() - 2].iteration)
                                                : "",
                             sizeof(T) == 4 ? "float (above 3.4e38; try precision = \"double\" or a scaled problem)" : "double",
                             what_to_try(m_solver_name)));
}

template class SolveCheck<float>;
template class SolveCheck<double>;

}  // namespace gridflow::app
