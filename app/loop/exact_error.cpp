#include "app/loop/exact_error.hpp"

#include <mpi.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

#include <fmt/format.h>

#include "mesh/check.hpp"
#include "kernels/core/non_finite_flag.hpp"
#include "solver/evaluate_on_box.hpp"
#include "solver/evaluate_on_device.hpp"

namespace gridflow::app {

template <class T>
void ExactError<T>::act(const RunState<T, 3>& state, RunControl&) {
  const auto& d = state.decomposition;
  const mesh::Field<T, 3>& field = state.fields.field("u");
  double err = 0;
  if (field.space() == mesh::MemorySpace::device && solver::has_device_form(m_exact)) {
    // On the device: the host would evaluate the formula point by point (seconds at 513^3).
    err = solver::max_difference_on_device<T, 3>(m_exact, d.grid(), d.owned(), field.view(), state.fields.stream());
  } else {
    const mesh::Field<T, 3>& u = state.fields.host("u");
    solver::evaluate_on_box(m_exact, d.grid(), d.owned(), [&](const auto& p, double v) {
      const double diff = std::abs(static_cast<double>(u(p[0], p[1], p[2])) - v);
      if (std::isnan(diff) || diff > err) err = diff;  // a NaN is kept: std::max would skip it, and a later diff replace it
    });
  }
  double global = 0;
  GRIDFLOW_MPI_CHECK(MPI_Allreduce(&err, &global, 1, MPI_DOUBLE, MPI_MAX, d.comm()));
  m_value = global;
}

void require_finite_exact(const std::string& key, const solver::CoordinateFunction& exact, const mesh::Decomposition<3>& d,
                          mesh::MemorySpace space, StreamHandle stream) {
  if (exact.constant() && std::isfinite(exact.eval(0, 0, 0))) return;
  if (space == mesh::MemorySpace::device && solver::has_device_form(exact)) {
    const kernels::core::NonFiniteFlag flag(d.grid(), space);
    solver::evaluate_on_device<double, 3>(exact, d.grid(), d.owned(), {}, stream, {flag.watch(0), d.owned()});
    const std::uint64_t local = flag.read(stream);
    std::uint64_t first = local;
    GRIDFLOW_MPI_CHECK(MPI_Allreduce(&local, &first, 1, MPI_UINT64_T, MPI_MIN, d.comm()));
    if (first == kernels::core::no_non_finite) return;
  }
  long long bad = 0;
  std::array<double, 4> first{};  // x, y, z, value of this rank's first bad point
  solver::evaluate_on_box(exact, d.grid(), d.owned(), [&](const auto& p, double v) {
    if (std::isfinite(v)) return;
    if (bad++ == 0) first = {d.grid().coordinate(0, p[0]), d.grid().coordinate(1, p[1]), d.grid().coordinate(2, p[2]), v};
  });
  long long total = 0;
  GRIDFLOW_MPI_CHECK(MPI_Allreduce(&bad, &total, 1, MPI_LONG_LONG, MPI_SUM, d.comm()));
  if (total == 0) return;
  int holder = bad ? d.rank() : d.size(), lowest = 0;
  GRIDFLOW_MPI_CHECK(MPI_Allreduce(&holder, &lowest, 1, MPI_INT, MPI_MIN, d.comm()));
  GRIDFLOW_MPI_CHECK(MPI_Bcast(first.data(), 4, MPI_DOUBLE, lowest, d.comm()));
  throw InputError(fmt::format("key '{}': the exact solution is {} at (x, y, z) = ({}, {}, {}) and not finite at {} of the "
                               "grid's points; it must be a finite number everywhere",
                               key, std::isnan(first[3]) ? std::string("NaN") : fmt::format("{}", first[3]), first[0], first[1], first[2], total));
}

template class ExactError<float>;
template class ExactError<double>;

}  // namespace gridflow::app
