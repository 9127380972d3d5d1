#include <cuda_runtime.h>

#include <algorithm>

#include "kernels/pack/box_copy_cuda.hpp"
#include "mesh/check.hpp"

namespace gridflow::kernels::pack {

namespace {

struct BoxShape {
  long long lo[3];
  long long n[3];
  long long size;
};

template <int Dim>
BoxShape shape_of(const mesh::Box<Dim>& box) {
  BoxShape s{{0, 0, 0}, {1, 1, 1}, box.size()};
  for (int d = 0; d < Dim; ++d) {
    s.lo[d] = box.lo[d];
    s.n[d] = box.extent(d);
  }
  return s;
}

// One thread per box point, linear index q = x + n0 (y + n1 z) in buffer order.
template <class T, int Dim>
__device__ long long field_offset(const mesh::FieldView<T, Dim>& f, const BoxShape& s, long long q) {
  const long long x = q % s.n[0];
  const long long y = (q / s.n[0]) % s.n[1];
  long long off = (s.lo[0] + x - f.lo[0]) + (s.lo[1] + y - f.lo[1]) * f.stride[1];
  if constexpr (Dim == 3) off += (s.lo[2] + q / (s.n[0] * s.n[1]) - f.lo[2]) * f.stride[2];
  return off;
}

template <class T, int Dim>
__global__ void pack_kernel(mesh::FieldView<const T, Dim> f, BoxShape s, T* __restrict__ buffer) {
  for (long long q = blockIdx.x * 256ll + threadIdx.x; q < s.size; q += 256ll * gridDim.x)
    buffer[q] = f.data[field_offset(f, s, q)];
}

template <class T, int Dim>
__global__ void unpack_kernel(const T* __restrict__ buffer, BoxShape s, mesh::FieldView<T, Dim> f) {
  for (long long q = blockIdx.x * 256ll + threadIdx.x; q < s.size; q += 256ll * gridDim.x)
    f.data[field_offset(f, s, q)] = buffer[q];
}

unsigned blocks_for(long long n) { return static_cast<unsigned>(std::min<long long>((n + 255) / 256, 65535)); }

}  // namespace

template <class T, int Dim>
void launch_pack_cuda(mesh::FieldView<const T, Dim> field, const mesh::Box<Dim>& box, T* buffer, StreamHandle stream) {
  const BoxShape s = shape_of(box);
  if (s.size == 0) return;
  pack_kernel<T, Dim><<<blocks_for(s.size), 256, 0, stream>>>(field, s, buffer);
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
}

template <class T, int Dim>
void launch_unpack_cuda(const T* buffer, const mesh::Box<Dim>& box, mesh::FieldView<T, Dim> field, StreamHandle stream) {
  const BoxShape s = shape_of(box);
  if (s.size == 0) return;
  unpack_kernel<T, Dim><<<blocks_for(s.size), 256, 0, stream>>>(buffer, s, field);
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
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
