#include "kernels/pack/box_copy.hpp"

#include <Kokkos_Core.hpp>

#include "gridflow/config.hpp"
#include "kernels/pack/box_copy_cuda.hpp"

namespace gridflow::kernels::pack {

namespace {

// Calls row(offset_in_field, offset_in_buffer, length) for every x-row of `box`.
template <int Dim, class View, class RowFn>
void for_each_row(const View& v, const mesh::Box<Dim>& box, RowFn&& row) {
  const std::int64_t nx = box.extent(0), ny = box.extent(1);
  const std::int64_t nz = Dim == 3 ? box.extent(Dim - 1) : 1;
  Kokkos::parallel_for("pack::rows", Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, ny * nz),
                       [&](const std::int64_t r) {
                         const std::int64_t y = r % ny, z = r / ny;
                         std::int64_t off = (box.lo[0] - v.lo[0]) + (box.lo[1] + y - v.lo[1]) * v.stride[1];
                         if constexpr (Dim == 3) off += (box.lo[Dim - 1] + z - v.lo[Dim - 1]) * v.stride[Dim - 1];
                         row(off, r * nx, nx);
                       });
}

template <class T, int Dim>
void require_inside(const mesh::Field<T, Dim>& field, const mesh::Box<Dim>& box) {
  GRIDFLOW_REQUIRE(field.ghosted().contains(box), "pack/unpack box lies outside the field's ghosted box");
}

}  // namespace

template <class T, int Dim>
void pack(const mesh::Field<T, Dim>& field, const mesh::Box<Dim>& box, T* buffer, StreamHandle stream) {
  require_inside(field, box);
  if (box.empty()) return;
#if GRIDFLOW_HAVE_CUDA
  if (field.space() == mesh::MemorySpace::device) return launch_pack_cuda<T, Dim>(field.view(), box, buffer, stream);
#endif
  (void)stream;
  const auto v = field.view();
  for_each_row<Dim>(v, box, [&](std::int64_t off, std::int64_t at, std::int64_t n) {
    std::copy(v.data + off, v.data + off + n, buffer + at);
  });
}

template <class T, int Dim>
void unpack(const T* buffer, const mesh::Box<Dim>& box, mesh::Field<T, Dim>& field, StreamHandle stream) {
  require_inside(field, box);
  if (box.empty()) return;
#if GRIDFLOW_HAVE_CUDA
  if (field.space() == mesh::MemorySpace::device) return launch_unpack_cuda<T, Dim>(buffer, box, field.view(), stream);
#endif
  (void)stream;
  const auto v = field.view();
  for_each_row<Dim>(v, box, [&](std::int64_t off, std::int64_t at, std::int64_t n) {
    std::copy(buffer + at, buffer + at + n, v.data + off);
  });
}

#define GRIDFLOW_INSTANTIATE_PACK(T, D)                                                                   \
  template void pack<T, D>(const mesh::Field<T, D>&, const mesh::Box<D>&, T*, StreamHandle);           \
  template void unpack<T, D>(const T*, const mesh::Box<D>&, mesh::Field<T, D>&, StreamHandle);
GRIDFLOW_INSTANTIATE_PACK(float, 2)
GRIDFLOW_INSTANTIATE_PACK(double, 2)
GRIDFLOW_INSTANTIATE_PACK(float, 3)
GRIDFLOW_INSTANTIATE_PACK(double, 3)
#undef GRIDFLOW_INSTANTIATE_PACK

}  // namespace gridflow::kernels::pack
