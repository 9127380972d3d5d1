#include "app/exact_error.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>

#include "mesh/check.hpp"
#include "solver/evaluate_on_box.hpp"

namespace gridflow::app {

template <class T>
void ExactError<T>::act(const RunState<T, 3>& state, RunControl&) {
  const auto& d = state.decomposition;
  const mesh::Field<T, 3>& u = state.fields.host("u");
  double err = 0;
  solver::evaluate_on_box(m_exact, d.grid(), d.owned(), [&](const auto& p, double v) {
    err = std::max(err, std::abs(static_cast<double>(u(p[0], p[1], p[2])) - v));
  });
  double global = 0;
  GRIDFLOW_MPI_CHECK(MPI_Allreduce(&err, &global, 1, MPI_DOUBLE, MPI_MAX, d.comm()));
  m_value = global;
}

template class ExactError<float>;
template class ExactError<double>;

}  // namespace gridflow::app
