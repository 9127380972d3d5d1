#include "kernels/pack/box_copy.hpp"

#include <algorithm>

#include "kernels/core/box_points.hpp"
#include "kernels/core/for_each_host.hpp"
#include "kernels/core/space_dispatch.hpp"
#include "kernels/pack/box_copy_cuda.hpp"

namespace gridflow::kernels::pack {

namespace {

template <class T, int Dim>
void require_inside(const mesh::Field<T, Dim>& field, const mesh::Box<Dim>& box) {
  GRIDFLOW_REQUIRE(field.ghosted().contains(box), "pack/unpack box lies outside the field's ghosted box");
}

}  // namespace

template <class T, int Dim>
void pack(const mesh::Field<T, Dim>& field, const mesh::Box<Dim>& box, T* buffer, StreamHandle stream) {
  require_inside(field, box);
  if (box.empty()) return;
  core::run_on_space(
      "pack::pack", field.space(), stream,
      [&] {
        const auto v = field.view();
        const auto points = core::BoxPoints<Dim>::of(box);
        core::for_each_row_host("pack::rows", box, [&](auto... jk) {
          const T* row = &v(box.lo[0], jk...);
          std::copy(row, row + points.n[0], buffer + points.ordinal(box.lo[0], jk...));
        });
      },
      [&](auto) { launch_pack_cuda<T, Dim>(field.view(), box, buffer, stream); });
}

template <class T, int Dim>
void unpack(const T* buffer, const mesh::Box<Dim>& box, mesh::Field<T, Dim>& field, StreamHandle stream) {
  require_inside(field, box);
  if (box.empty()) return;
  core::run_on_space(
      "pack::unpack", field.space(), stream,
      [&] {
        const auto v = field.view();
        const auto points = core::BoxPoints<Dim>::of(box);
        core::for_each_row_host("pack::rows", box, [&](auto... jk) {
          const T* from = buffer + points.ordinal(box.lo[0], jk...);
          std::copy(from, from + points.n[0], &v(box.lo[0], jk...));
        });
      },
      [&](auto) { launch_unpack_cuda<T, Dim>(buffer, box, field.view(), stream); });
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
