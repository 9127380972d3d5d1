#include "app/loop/finite_check.hpp"

#include <fmt/format.h>

#include "mesh/check.hpp"

namespace gridflow::app {

namespace {

template <int Dim>
std::string point_text(const mesh::Grid<Dim>& grid, const kernels::core::NonFiniteAt& at) {
  const std::array<std::int64_t, 3> index{at.i, at.j, at.k};
  const char* axes = "xyz";
  std::string cell = "(", where = "(", boundary;
  for (int d = 0; d < Dim; ++d) {
    const double x = grid.coordinate(d, index[d]);
    cell += fmt::format("{}{}", d ? ", " : "", index[d]);
    where += fmt::format("{}{} = {:.6g}", d ? ", " : "", axes[d], x);
    if (boundary.empty() && (index[d] == 0 || index[d] == grid.n[d]))
      boundary = fmt::format(", on the boundary {} = {:.6g}", axes[d], x);
  }
  return "global point " + cell + ") at " + where + ")" + boundary;
}

}  // namespace

template <int Dim>
void throw_if_non_finite(const kernels::core::NonFiniteFlag& flag, StreamHandle stream, MPI_Comm comm,
                         const mesh::Grid<Dim>& grid, double dt, const std::string& field, const std::string& hint) {
  const std::uint64_t local = flag.read(stream);
  std::uint64_t first = local;
  GRIDFLOW_MPI_CHECK(MPI_Allreduce(&local, &first, 1, MPI_UINT64_T, MPI_MIN, comm));
  if (first == kernels::core::no_non_finite) return;
  const auto at = flag.decode(first);
  throw RunError(fmt::format("the solution {} is no longer finite: its first NaN or infinite value appeared at step {} "
                             "(t = {:.6e}), {}; {}",
                             field, at.step, static_cast<double>(at.step) * dt, point_text(grid, at), hint));
}

template <class T, int Dim>
void FiniteCheck<T, Dim>::act(const RunState<T, Dim>& state, RunControl&) {
  solver::PhaseScope timed(m_timer);
  throw_if_non_finite(m_flag, m_stream, state.comm(), state.decomposition.grid(), state.dt, m_field, m_hint);
}

template void throw_if_non_finite<2>(const kernels::core::NonFiniteFlag&, StreamHandle, MPI_Comm, const mesh::Grid<2>&,
                                     double, const std::string&, const std::string&);
template void throw_if_non_finite<3>(const kernels::core::NonFiniteFlag&, StreamHandle, MPI_Comm, const mesh::Grid<3>&,
                                     double, const std::string&, const std::string&);
template class FiniteCheck<float, 2>;
template class FiniteCheck<double, 2>;
template class FiniteCheck<float, 3>;
template class FiniteCheck<double, 3>;

}  // namespace gridflow::app
