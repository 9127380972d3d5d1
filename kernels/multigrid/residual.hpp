#pragma once
// The 7-point operator as a field operation: the residual r = f - A u, and A u itself (for
// conjugate gradients). Host oracle and CUDA variant, sharing multigrid_point.hpp. The fields may
// have different layouts but share one memory space; box.grow(1) must lie in u's ghosted box.
// Host fields: blocks. Device fields: asynchronous on `stream`.
#include "kernels/multigrid/multigrid_point.hpp"
#include "mesh/box.hpp"
#include "mesh/field.hpp"

namespace gridflow::kernels::multigrid {

/// r = f - A u on `box`; other points of r are left as they are.
template <class T>
void residual(const mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, mesh::Field<T, 3>& r, const mesh::Box<3>& box,
              const PoissonCoefficients<T>& k, StreamHandle stream);

/// out = A u on `box`; other points of out are left as they are.
template <class T>
void apply_laplacian(const mesh::Field<T, 3>& u, mesh::Field<T, 3>& out, const mesh::Box<3>& box,
                     const PoissonCoefficients<T>& k, StreamHandle stream);

}  // namespace gridflow::kernels::multigrid
