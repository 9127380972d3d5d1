#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "kernels/reduce/min_max_cuda.hpp"
#include "mesh/check.hpp"
#include "mesh/device.hpp"

namespace gridflow::kernels::reduce {

namespace {

constexpr int threads = 256;

// Per block: min, max and a count of non-finite values; the host folds the block results.
template <class T, int Dim>
__global__ void min_max_kernel(mesh::FieldView<const T, Dim> f, long long lo0, long long lo1, long long lo2, long long n0,
                               long long n1, long long size, T* block_min, T* block_max, int* block_bad) {
  __shared__ T smin[threads];
  __shared__ T smax[threads];
  __shared__ int sbad[threads];
  T mn = T(INFINITY), mx = T(-INFINITY);
  int bad = 0;
  for (long long q = blockIdx.x * (long long)threads + threadIdx.x; q < size; q += (long long)threads * gridDim.x) {
    const long long x = q % n0, y = (q / n0) % n1, z = q / (n0 * n1);
    long long off = (lo0 + x - f.lo[0]) + (lo1 + y - f.lo[1]) * f.stride[1];
    if constexpr (Dim == 3) off += (lo2 + z - f.lo[2]) * f.stride[2];
    const T v = f.data[off];
    if (!isfinite(v)) { ++bad; continue; }
    mn = v < mn ? v : mn;
    mx = v > mx ? v : mx;
  }
  smin[threadIdx.x] = mn;
  smax[threadIdx.x] = mx;
  sbad[threadIdx.x] = bad;
  __syncthreads();
  for (int s = threads / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) {
      smin[threadIdx.x] = min(smin[threadIdx.x], smin[threadIdx.x + s]);
      smax[threadIdx.x] = max(smax[threadIdx.x], smax[threadIdx.x + s]);
      sbad[threadIdx.x] += sbad[threadIdx.x + s];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    block_min[blockIdx.x] = smin[0];
    block_max[blockIdx.x] = smax[0];
    block_bad[blockIdx.x] = sbad[0];
  }
}

}  // namespace

template <class T, int Dim>
MinMax<T> min_max_cuda(mesh::FieldView<const T, Dim> field, const mesh::Box<Dim>& box, StreamHandle stream) {
  const long long size = box.size();
  GRIDFLOW_REQUIRE(size > 0, "min/max of an empty box");
  const int blocks = static_cast<int>(std::min<long long>((size + threads - 1) / threads, 1024));
  auto partial = mesh::Buffer::on_stream(blocks * (2 * sizeof(T) + sizeof(int)), stream);
  T* bmin = static_cast<T*>(partial.data());
  T* bmax = bmin + blocks;
  int* bbad = reinterpret_cast<int*>(bmax + blocks);
  const long long lo2 = Dim == 3 ? box.lo[Dim - 1] : 0;
  min_max_kernel<T, Dim><<<blocks, threads, 0, stream>>>(field, box.lo[0], box.lo[1], lo2, box.extent(0), box.extent(1),
                                                         size, bmin, bmax, bbad);
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
  std::vector<T> hmin(blocks), hmax(blocks);
  std::vector<int> hbad(blocks);
  GRIDFLOW_CUDA_CHECK(cudaMemcpyAsync(hmin.data(), bmin, blocks * sizeof(T), cudaMemcpyDeviceToHost, stream));
  GRIDFLOW_CUDA_CHECK(cudaMemcpyAsync(hmax.data(), bmax, blocks * sizeof(T), cudaMemcpyDeviceToHost, stream));
  GRIDFLOW_CUDA_CHECK(cudaMemcpyAsync(hbad.data(), bbad, blocks * sizeof(int), cudaMemcpyDeviceToHost, stream));
  GRIDFLOW_CUDA_CHECK(cudaStreamSynchronize(stream));
  MinMax<T> r{*std::min_element(hmin.begin(), hmin.end()), *std::max_element(hmax.begin(), hmax.end()), true};
  for (int b : hbad) r.finite = r.finite && b == 0;
  return r;
}

template MinMax<float> min_max_cuda<float, 2>(mesh::FieldView<const float, 2>, const mesh::Box<2>&, StreamHandle);
template MinMax<double> min_max_cuda<double, 2>(mesh::FieldView<const double, 2>, const mesh::Box<2>&, StreamHandle);
template MinMax<float> min_max_cuda<float, 3>(mesh::FieldView<const float, 3>, const mesh::Box<3>&, StreamHandle);
template MinMax<double> min_max_cuda<double, 3>(mesh::FieldView<const double, 3>, const mesh::Box<3>&, StreamHandle);

}  // namespace gridflow::kernels::reduce
