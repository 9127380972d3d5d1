#pragma once
// Pack and unpack: copy the values of a box of a field to and from a contiguous buffer (x fastest,
// then y, then z). The buffer lives in the field's memory space. Used for halo messages and for
// writing Dirichlet boundary values into a field.
#include "mesh/box.hpp"
#include "mesh/field.hpp"

namespace gridflow::kernels::pack {

/// buffer[0 .. box.size()) = field values on `box` (which must lie in the ghosted box).
/// Host fields: blocks. Device fields: asynchronous on `stream`.
template <class T, int Dim>
void pack(const mesh::Field<T, Dim>& field, const mesh::Box<Dim>& box, T* buffer, StreamHandle stream);

/// Field values on `box` = buffer[0 .. box.size()).
template <class T, int Dim>
void unpack(const T* buffer, const mesh::Box<Dim>& box, mesh::Field<T, Dim>& field, StreamHandle stream);

}  // namespace gridflow::kernels::pack
