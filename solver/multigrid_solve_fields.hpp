#pragma once
// MultigridSolveFields<T>: the u and f a multigrid or CG-multigrid solve works on. Where the
// caller's fields already have the multigrid layout they are used as they are (no pass over
// memory at the start and the end of a solve); otherwise copies in that layout, u copied back
// by copy_back().
#include <memory>
#include <string>

#include "kernels/multigrid/vector_ops.hpp"
#include "solver/multigrid_solver.hpp"

namespace gridflow::solver {

template <class T>
class MultigridSolveFields {
 public:
  /// Copies u_in (owned points) and f_in (owned interior points) where a copy is needed; the
  /// copies are labelled `prefix` + "_solution" / "_rhs".
  MultigridSolveFields(const MultigridSolver<T>& multigrid, const PoissonContext& context, mesh::Field<T, 3>& u_in,
                       const mesh::Field<T, 3>& f_in, const std::string& prefix)
      : m_u_in(u_in),
        m_f_in(f_in),
        m_updated(context.decomposition.owned().intersect(context.decomposition.grid().interior())),
        m_space(context.space),
        m_stream(context.stream),
        m_u_copy(multigrid.has_field_layout(u_in) ? nullptr : multigrid.make_field(prefix + "_solution")),
        m_f_copy(multigrid.has_field_layout(f_in) ? nullptr : multigrid.make_field(prefix + "_rhs")) {
    if (m_u_copy) kernels::multigrid::copy(u_in, *m_u_copy, context.decomposition.owned(), m_stream);
    if (m_f_copy) kernels::multigrid::copy(f_in, *m_f_copy, m_updated, m_stream);
  }

  mesh::Field<T, 3>& u() const { return m_u_copy ? *m_u_copy : m_u_in; }
  const mesh::Field<T, 3>& f() const { return m_f_copy ? *m_f_copy : m_f_in; }
  /// The solution in the caller's u (copied back where the solve worked on a copy), the stream
  /// synchronised.
  void finish() const {
    if (m_u_copy) kernels::multigrid::copy(*m_u_copy, m_u_in, m_updated, m_stream);
    mesh::synchronize(m_space, m_stream);
  }

 private:
  mesh::Field<T, 3>& m_u_in;
  const mesh::Field<T, 3>& m_f_in;
  mesh::Box<3> m_updated;  // the owned interior points: what a solve changes
  mesh::MemorySpace m_space;
  StreamHandle m_stream;
  std::unique_ptr<mesh::Field<T, 3>> m_u_copy, m_f_copy;  // null where the caller's field is used as it is
};

}  // namespace gridflow::solver
