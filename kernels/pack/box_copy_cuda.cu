#include "kernels/core/for_each_cuda.cuh"
#include "kernels/pack/box_copy_cuda.hpp"

namespace gridflow::kernels::pack {

namespace {

// buffer[q] = field at point q of the box (box order, x fastest).
template <class T, int Dim>
struct Pack {
  mesh::FieldView<const T, Dim> field;
  core::BoxPoints<Dim> points;
  T* buffer;
  template <class... I>
  __device__ void operator()(I... index) const { buffer[points.ordinal(index...)] = field(index...); }
};

template <class T, int Dim>
struct Unpack {
  const T* buffer;
  core::BoxPoints<Dim> points;
  mesh::FieldView<T, Dim> field;
  template <class... I>
  __device__ void operator()(I... index) const { field(index...) = buffer[points.ordinal(index...)]; }
};

}  // namespace

template <class T, int Dim>
void launch_pack_cuda(mesh::FieldView<const T, Dim> field, const mesh::Box<Dim>& box, T* buffer, StreamHandle stream) {
  core::for_each_cuda(box, Pack<T, Dim>{field, core::BoxPoints<Dim>::of(box), buffer}, stream, core::ThreadLayout::linear);
}

template <class T, int Dim>
void launch_unpack_cuda(const T* buffer, const mesh::Box<Dim>& box, mesh::FieldView<T, Dim> field, StreamHandle stream) {
  core::for_each_cuda(box, Unpack<T, Dim>{buffer, core::BoxPoints<Dim>::of(box), field}, stream, core::ThreadLayout::linear);
}

#define GRIDFLOW_INSTANTIATE_PACK(T, D)                                                                       \
  template void launch_pack_cuda<T, D>(mesh::FieldView<const T, D>, const mesh::Box<D>&, T*, StreamHandle); \
  template void launch_unpack_cuda<T, D>(const T*, const mesh::Box<D>&, mesh::FieldView<T, D>, StreamHandle);
GRIDFLOW_INSTANTIATE_PACK(float, 2)
GRIDFLOW_INSTANTIATE_PACK(double, 2)
GRIDFLOW_INSTANTIATE_PACK(float, 3)
GRIDFLOW_INSTANTIATE_PACK(double, 3)
#undef GRIDFLOW_INSTANTIATE_PACK

}  // namespace gridflow::kernels::pack
