#include "solver/memory_need.hpp"

#include "mesh/field.hpp"

namespace gridflow::solver {

template <int Dim>
double field_bytes(const mesh::Box<Dim>& owned, int ghost, kernels::core::Precision precision) {
  if (precision == kernels::core::Precision::float32)
    return static_cast<double>(mesh::Field<float, Dim>::allocated_elements_for(owned, ghost)) * sizeof(float);
  return static_cast<double>(mesh::Field<double, Dim>::allocated_elements_for(owned, ghost)) * sizeof(double);
}

template <int Dim>
double halo_bytes(const mesh::Box<Dim>& owned, int ghost, kernels::core::Precision precision) {
  const double element = precision == kernels::core::Precision::float32 ? sizeof(float) : sizeof(double);
  const double ghosted = static_cast<double>(owned.grow(ghost).size());
  return 2 * (ghosted - static_cast<double>(owned.size())) * element;  // a send and a receive buffer
}

template double field_bytes<2>(const mesh::Box<2>&, int, kernels::core::Precision);
template double field_bytes<3>(const mesh::Box<3>&, int, kernels::core::Precision);
template double halo_bytes<2>(const mesh::Box<2>&, int, kernels::core::Precision);
template double halo_bytes<3>(const mesh::Box<3>&, int, kernels::core::Precision);

}  // namespace gridflow::solver
