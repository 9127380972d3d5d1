#include "kernels/core/for_each_cuda.cuh"
#include "kernels/pack/box_copy_cuda.hpp"

namespace gridflow::kernels::pack {

namespace {

// The offset in `f`'s allocation of point q of the box (box order, x fastest): the buffer's
// order. A pure copy is index arithmetic and memory: this takes the fewest divisions.
template <class T, int Dim>
__device__ long long field_offset(const mesh::FieldView<T, Dim>& f, const core::BoxPoints<Dim>& s, long long q) {
  const long long row = q / s.n[0], x = q - row * s.n[0];
  if constexpr (Dim == 2) return (s.lo[0] + x - f.lo[0]) + (s.lo[1] + row - f.lo[1]) * f.stride[1];
  else {
    const long long z = row / s.n[1], y = row - z * s.n[1];
    return (s.lo[0] + x - f.lo[0]) + (s.lo[1] + y - f.lo[1]) * f.stride[1] + (s.lo[2] + z - f.lo[2]) * f.stride[2];
  }
}

// buffer[q] = field at point q of the box.
template <class T, int Dim>
struct Pack {
  mesh::FieldView<const T, Dim> field;
  core::BoxPoints<Dim> points;
  T* buffer;
  // __ldg: the read-only data path for the strided field reads, as a __restrict__ const pointer
  // parameter gave the kernel this replaced (13% on a 513^3 slab transpose's pack without it).
  __device__ void operator()(long long q) const { buffer[q] = __ldg(field.data + field_offset(field, points, q)); }
};

template <class T, int Dim>
struct Unpack {
  const T* buffer;
  core::BoxPoints<Dim> points;
  mesh::FieldView<T, Dim> field;
  __device__ void operator()(long long q) const { field.data[field_offset(field, points, q)] = __ldg(buffer + q); }
};

}  // namespace

template <class T, int Dim>
void launch_pack_cuda(mesh::FieldView<const T, Dim> field, const mesh::Box<Dim>& box, T* buffer, StreamHandle stream) {
  core::for_each_index_cuda(box.size(), Pack<T, Dim>{field, core::BoxPoints<Dim>::of(box), buffer}, stream);
}

template <class T, int Dim>
void launch_unpack_cuda(const T* buffer, const mesh::Box<Dim>& box, mesh::FieldView<T, Dim> field, StreamHandle stream) {
  core::for_each_index_cuda(box.size(), Unpack<T, Dim>{buffer, core::BoxPoints<Dim>::of(box), field}, stream);
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
