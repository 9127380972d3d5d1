#include "solver/poisson_solver.hpp"

#include "mesh/check.hpp"
#include "solver/cg_multigrid_solver.hpp"
#include "solver/jacobi_solver.hpp"
#include "solver/multigrid_solver.hpp"
#include "solver/spectral_solver.hpp"

namespace gridflow::solver {

template <class T>
std::unique_ptr<PoissonSolver<T>> make_poisson_solver(const PoissonContext& context) {
  const auto& name = context.config.solver;
  if (name == "jacobi") return std::make_unique<JacobiSolver<T>>(context);
  if (name == "spectral") return std::make_unique<SpectralSolver<T>>(context);
  if (name == "multigrid") return std::make_unique<MultigridSolver<T>>(context);
  if (name == "cg-mg") return std::make_unique<CgMultigridSolver<T>>(context);
  throw InputError("key 'solver': '" + name + "' is not available in this version of gridflow");
}

template std::unique_ptr<PoissonSolver<float>> make_poisson_solver<float>(const PoissonContext&);
template std::unique_ptr<PoissonSolver<double>> make_poisson_solver<double>(const PoissonContext&);

}  // namespace gridflow::solver
