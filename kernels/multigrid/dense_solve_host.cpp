// Host oracle of the dense coarse solve, the inverse it applies, and the dispatch to CUDA.
#include <cmath>
#include <string>
#include <utility>

#include "kernels/core/for_each_host.hpp"
#include "kernels/core/space_dispatch.hpp"
#include "kernels/multigrid/dense_solve.hpp"
#include "kernels/multigrid/dense_solve_cuda.hpp"
#include "kernels/multigrid/field_checks.hpp"

namespace gridflow::kernels::multigrid {

std::vector<double> dense_inverse(const mesh::Box<3>& interior, const PoissonCoefficients<double>& k) {
  const mesh::Index n = interior.size();
  GRIDFLOW_REQUIRE(n >= 1 && n <= dense_solve_max_points, "multigrid::dense_inverse: " + std::to_string(n) +
                                                              " points, more than a dense solve takes");
  const auto nx = interior.extent(0), ny = interior.extent(1);
  const auto index = [&](mesh::Index i, mesh::Index j, mesh::Index kk) {
    return (i - interior.lo[0]) + nx * ((j - interior.lo[1]) + ny * (kk - interior.lo[2]));
  };
  // [A | I], reduced to [I | A^{-1}] with partial pivoting.
  const std::size_t w = static_cast<std::size_t>(2 * n);
  std::vector<double> m(static_cast<std::size_t>(n) * w, 0.0);
  const double diag = -2 * (k.ix2 + k.iy2 + k.iz2);
  const double coupling[3] = {k.ix2, k.iy2, k.iz2};
  for (mesh::Index kk = interior.lo[2]; kk <= interior.hi[2]; ++kk)
    for (mesh::Index j = interior.lo[1]; j <= interior.hi[1]; ++j)
      for (mesh::Index i = interior.lo[0]; i <= interior.hi[0]; ++i) {
        const auto p = static_cast<std::size_t>(index(i, j, kk));
        m[p * w + p] = diag;
        m[p * w + static_cast<std::size_t>(n) + p] = 1;
        const mesh::Index at[3] = {i, j, kk};
        for (int d = 0; d < 3; ++d)
          for (int s : {-1, 1}) {
            mesh::Index q[3] = {at[0], at[1], at[2]};
            q[d] += s;
            if (q[d] < interior.lo[d] || q[d] > interior.hi[d]) continue;
            m[p * w + static_cast<std::size_t>(index(q[0], q[1], q[2]))] = coupling[d];
          }
      }
  const auto rows = static_cast<std::size_t>(n);
  for (std::size_t c = 0; c < rows; ++c) {
    std::size_t pivot = c;
    for (std::size_t r = c + 1; r < rows; ++r)
      if (std::abs(m[r * w + c]) > std::abs(m[pivot * w + c])) pivot = r;
    if (pivot != c)
      for (std::size_t q = 0; q < w; ++q) std::swap(m[c * w + q], m[pivot * w + q]);
    const double scale = 1 / m[c * w + c];
    for (std::size_t q = 0; q < w; ++q) m[c * w + q] *= scale;
    for (std::size_t r = 0; r < rows; ++r) {
      const double factor = m[r * w + c];
      if (r == c || factor == 0) continue;
      for (std::size_t q = 0; q < w; ++q) m[r * w + q] -= factor * m[c * w + q];
    }
  }
  std::vector<double> inverse(rows * rows);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t q = 0; q < rows; ++q) inverse[r * rows + q] = m[r * w + rows + q];
  return inverse;
}

template <class T>
void apply_dense_inverse(const T* inverse, const mesh::Field<T, 3>& f, mesh::Field<T, 3>& u, const mesh::Box<3>& box,
                         StreamHandle stream) {
  constexpr const char* name = "multigrid::apply_dense_inverse";
  GRIDFLOW_REQUIRE(&f != &u, std::string(name) + ": input and output must be different fields");
  require_same_space(f, u, name);
  require_reach(f, box, name);
  require_reach(u, box, name);
  if (box.empty()) return;
  core::run_on_space(
      name, u.space(), stream,
      [&] {
        const auto fv = f.view();
        const auto uv = u.view();
        const auto points = core::BoxPoints<3>::of(box);
        core::for_each_host("multigrid::apply_dense_inverse::host", box, [&](std::int64_t i, std::int64_t j, std::int64_t k) {
          uv(i, j, k) = dense_row_at(inverse, fv, points, i, j, k);
        });
      },
      [&](auto) { apply_dense_inverse_cuda<T>(inverse, f.view(), u.view(), box, stream); });
}

template void apply_dense_inverse<float>(const float*, const mesh::Field<float, 3>&, mesh::Field<float, 3>&, const mesh::Box<3>&,
                                         StreamHandle);
template void apply_dense_inverse<double>(const double*, const mesh::Field<double, 3>&, mesh::Field<double, 3>&,
                                          const mesh::Box<3>&, StreamHandle);

}  // namespace gridflow::kernels::multigrid
