#pragma once
// Minimum and maximum of a field over a box, on the field's memory space.
#include "mesh/box.hpp"
#include "mesh/field.hpp"

namespace gridflow::kernels::reduce {

template <class T>
struct MinMax {
  T min;
  T max;
  bool finite;  ///< false when any value is NaN or infinite
};

/// Over `box` (inside the ghosted box) of this rank only; blocks until the result is on the host.
template <class T, int Dim>
MinMax<T> min_max(const mesh::Field<T, Dim>& field, const mesh::Box<Dim>& box, StreamHandle stream = nullptr);

}  // namespace gridflow::kernels::reduce
