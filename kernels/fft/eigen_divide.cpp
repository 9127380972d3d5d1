// The eigenvalue tables, the host oracle of the division, and the dispatch to CUDA.
#include "kernels/fft/eigen_divide.hpp"

#include <vector>

#include "kernels/core/copy_from_host.hpp"
#include "kernels/core/for_each_host.hpp"
#include "kernels/core/space_dispatch.hpp"
#include "kernels/fft/eigen_divide_cuda.hpp"
#include "mesh/check.hpp"

namespace gridflow::kernels::fft {

template <class T>
DirichletEigenvalues<T>::DirichletEigenvalues(const mesh::Grid<3>& grid, mesh::MemorySpace space, StreamHandle stream) {
  for (int d = 0; d < 3; ++d) {
    std::vector<T> values(static_cast<std::size_t>(grid.n[d] + 1), T(0));
    for (mesh::Index i = 1; i < grid.n[d]; ++i)
      values[i] = static_cast<T>(dirichlet_second_difference_eigenvalue(i, grid.n[d], grid.spacing(d)));
    m_axes[d] = mesh::Buffer(values.size() * sizeof(T), space);
    core::copy_from_host(m_axes[d].data(), space, values.data(), m_axes[d].bytes(), stream);
  }
}

template <class T>
EigenTables<T> DirichletEigenvalues<T>::tables() const {
  EigenTables<T> t;
  for (int d = 0; d < 3; ++d) t.values[d] = static_cast<const T*>(m_axes[d].data());
  return t;
}

template <class T>
void divide_by_eigenvalues(mesh::Field<T, 3>& field, const mesh::Box<3>& box, const EigenTables<T>& tables, T scale,
                           StreamHandle stream) {
  GRIDFLOW_REQUIRE(field.ghosted().contains(box), "eigenvalue division box lies outside field '" + field.label() + "'");
  if (box.empty()) return;
  const auto v = field.view();
  core::run_on_space(
      "fft::eigen_divide", field.space(), stream,
      [&] {
        core::for_each_row_host("fft::eigen_divide::host", box, [&](std::int64_t j, std::int64_t k) {
          const T ly = tables.at(1, j), lz = tables.at(2, k);
          for (std::int64_t i = box.lo[0]; i <= box.hi[0]; ++i) v(i, j, k) = eigen_divide_point(v(i, j, k), tables.at(0, i), ly, lz, scale);
        });
      },
      [&](auto) { launch_eigen_divide_cuda<T>(v, box, tables, scale, stream); });
}

template class DirichletEigenvalues<float>;
template class DirichletEigenvalues<double>;
template void divide_by_eigenvalues<float>(mesh::Field<float, 3>&, const mesh::Box<3>&, const EigenTables<float>&, float,
                                           StreamHandle);
template void divide_by_eigenvalues<double>(mesh::Field<double, 3>&, const mesh::Box<3>&, const EigenTables<double>&,
                                            double, StreamHandle);

}  // namespace gridflow::kernels::fft
