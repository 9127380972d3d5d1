#pragma once
// Minimum and maximum of a field over a box, on the field's memory space.
#include "kernels/core/min_max_reducer.hpp"
#include "mesh/box.hpp"
#include "mesh/field.hpp"

namespace gridflow::kernels::core {

/// Over `box` (non-empty, inside the ghosted box) of this rank only; blocks until the result is on
/// the host. Device fields: computed on `stream`.
template <class T, int Dim>
MinMax<T> min_max(const mesh::Field<T, Dim>& field, const mesh::Box<Dim>& box, StreamHandle stream);

}  // namespace gridflow::kernels::core
