#include "app/loop/field_access.hpp"

#include <mpi.h>

#include <utility>

#include "kernels/core/min_max.hpp"
#include "mesh/check.hpp"

namespace gridflow::app {

template <class T, int Dim>
void FieldAccess<T, Dim>::point_to(std::vector<NamedField<T, Dim>> fields, StreamHandle stream) {
  m_fields = std::move(fields);
  m_stream = stream;
  for (auto& [name, d] : m_derived) {
    d.host_current = false;
    d.range.reset();
  }
}

template <class T, int Dim>
const mesh::Field<T, Dim>& FieldAccess<T, Dim>::field(const std::string& name) const {
  for (const auto& f : m_fields)
    if (f.name == name) return *f.field;
  throw Error("the run has no field '" + name + "'");
}

template <class T, int Dim>
void FieldAccess<T, Dim>::allocate_host_buffers() const {
  for (const auto& [name, f] : m_fields) {
    if (f->space() == mesh::MemorySpace::host) continue;
    Derived& d = m_derived[name];
    if (!d.host_buffer || !d.host_buffer->same_layout(*f)) {
      d.host_buffer = std::make_unique<mesh::Field<T, Dim>>(f->owned(), f->ghost_width(), mesh::MemorySpace::host, name + "_host");
      d.host_current = false;
    }
  }
}

template <class T, int Dim>
const mesh::Field<T, Dim>& FieldAccess<T, Dim>::host(const std::string& name) const {
  const mesh::Field<T, Dim>& f = field(name);
  if (f.space() == mesh::MemorySpace::host) return f;
  allocate_host_buffers();
  Derived& d = m_derived[name];
  if (!d.host_current) {
    d.host_buffer->copy_from(f);  // waits for the steps queued on the device
    d.host_current = true;
  }
  return *d.host_buffer;
}

template <class T, int Dim>
GlobalRange FieldAccess<T, Dim>::range(const std::string& name) const {
  const mesh::Field<T, Dim>& f = field(name);
  Derived& d = m_derived[name];
  if (!d.range) {
    const auto local = kernels::core::min_max(f, m_decomposition.owned(), m_stream);
    double in[3] = {-static_cast<double>(local.min), static_cast<double>(local.max), local.finite ? 0.0 : 1.0}, out[3];
    GRIDFLOW_MPI_CHECK(MPI_Allreduce(in, out, 3, MPI_DOUBLE, MPI_MAX, m_decomposition.comm()));
    d.range = GlobalRange{-out[0], out[1], out[2] == 0.0};
  }
  return *d.range;
}

template class FieldAccess<float, 2>;
template class FieldAccess<double, 2>;
template class FieldAccess<float, 3>;
template class FieldAccess<double, 3>;

}  // namespace gridflow::app
