#pragma once
// The pointwise solve of the spectral Poisson method: sine coefficients divided by the Dirichlet
// Laplacian's eigenvalues (eigen_divide_point.hpp), host oracle and CUDA.
#include "kernels/fft/eigen_divide_point.hpp"
#include "mesh/box.hpp"
#include "mesh/device.hpp"
#include "mesh/field.hpp"
#include "mesh/grid.hpp"

namespace gridflow::kernels::fft {

/// The eigenvalues l_i of every axis of `grid` for i = 0..n (i = 0 and n, which no interior mode
/// has, hold 0), in double rounded once to T, in memory `space` (device: copied there on `stream`).
template <class T>
class DirichletEigenvalues {
 public:
  DirichletEigenvalues(const mesh::Grid<3>& grid, mesh::MemorySpace space, StreamHandle stream);
  /// Tables indexed by global grid index, valid while this object lives.
  EigenTables<T> tables() const;

 private:
  mesh::Buffer m_axes[3];
};

/// field = field * scale / (lx_i + ly_j + lz_k) at every (i, j, k) of `box` (inside the ghosted box,
/// and where the tables are defined). Host: blocks. Device: asynchronous on `stream`.
template <class T>
void divide_by_eigenvalues(mesh::Field<T, 3>& field, const mesh::Box<3>& box, const EigenTables<T>& tables, T scale,
                           StreamHandle stream);

extern template class DirichletEigenvalues<float>;
extern template class DirichletEigenvalues<double>;

}  // namespace gridflow::kernels::fft
