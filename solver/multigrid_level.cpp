#include "solver/multigrid_level.hpp"

#include <utility>

#include "kernels/stencil/jacobi.hpp"

namespace gridflow::solver {

template <class T>
MultigridLevel<T>::MultigridLevel(const MultigridLevelPlan& plan, const mesh::Decomposition<3>& decomposition, bool finest,
                                  bool scratch, mesh::MemorySpace space, halo::Transport transport, StreamHandle stream,
                                  std::shared_ptr<const halo::NcclComm> nccl)
    : m_plan(plan),
      m_decomposition(decomposition),
      m_k(kernels::stencil::poisson_coefficients<T>(plan.grid.spacing(0), plan.grid.spacing(1), plan.grid.spacing(2))),
      m_updated(decomposition.owned().intersect(plan.grid.interior())),
      m_space(space),
      m_halo(m_decomposition, transport, stream, std::move(nccl)) {
  if (!finest) {
    m_u = make_field("mg_u");
    m_f = make_field("mg_f");
  }
  m_r = make_field("mg_r");
  if (scratch) m_scratch = make_field("mg_scratch");
}

template <class T>
std::unique_ptr<mesh::Field<T, 3>> MultigridLevel<T>::make_field(const std::string& label) const {
  return std::make_unique<mesh::Field<T, 3>>(m_decomposition.owned(), m_plan.ghost, m_space, label);
}

template class MultigridLevel<float>;
template class MultigridLevel<double>;

}  // namespace gridflow::solver
