#pragma once
#include "kernels/reduce/min_max.hpp"
#include "mesh/field_view.hpp"

namespace gridflow::kernels::reduce {

/// Device min/max of `box`; blocks until the result is on the host.
template <class T, int Dim>
MinMax<T> min_max_cuda(mesh::FieldView<const T, Dim> field, const mesh::Box<Dim>& box, StreamHandle stream);

}  // namespace gridflow::kernels::reduce
