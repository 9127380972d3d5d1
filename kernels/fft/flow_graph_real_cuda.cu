#include <cuda_runtime.h>

#include <algorithm>

#include "kernels/fft/flow_graph_real_point.hpp"
#include "kernels/fft/flow_graph_real_cuda.hpp"
#include "mesh/check.hpp"

namespace gridflow::kernels::fft {

namespace {

constexpr int threads = 256;

unsigned blocks_for(long long work) {
  return static_cast<unsigned>(std::clamp<long long>((work + threads - 1) / threads, 1, 1 << 20));
}

// One thread per element; consecutive threads take consecutive j of a line.
template <class T>
__global__ void copy_real_lines_kernel(const T* __restrict__ src, StridedLines s, T* __restrict__ dst,
                                       StridedLines d) {
  const long long total = s.count * s.batch;
  for (long long q = blockIdx.x * (long long)blockDim.x + threadIdx.x; q < total; q += (long long)blockDim.x * gridDim.x) {
    const long long b = q / s.count, j = q % s.count;
    dst[d.at(b, j)] = src[s.at(b, j)];
  }
}

// One thread per output bin k = 0..m of a line.
template <class T>
__global__ void r2c_split_kernel(const Complex<T>* __restrict__ z, long long m, long long batch,
                                 const Complex<T>* __restrict__ w, Complex<T>* __restrict__ out, StridedLines o) {
  const long long total = (m + 1) * batch;
  for (long long q = blockIdx.x * (long long)blockDim.x + threadIdx.x; q < total; q += (long long)blockDim.x * gridDim.x) {
    const long long b = q / (m + 1), k = q % (m + 1);
    const Complex<T> wk = k < m ? w[k] : Complex<T>{T(-1), T(0)};  // W_n^m = -1
    out[o.at(b, k)] = r2c_split_point(z[b * m + k % m], z[b * m + (m - k) % m], wk);
  }
}

// One thread per half-length bin k < m of a line.
template <class T>
__global__ void c2r_merge_kernel(const Complex<T>* __restrict__ in, StridedLines i, const Complex<T>* __restrict__ w,
                                 Complex<T>* __restrict__ z, long long m, long long batch) {
  const long long total = m * batch;
  for (long long q = blockIdx.x * (long long)blockDim.x + threadIdx.x; q < total; q += (long long)blockDim.x * gridDim.x) {
    const long long b = q / m, k = q % m;
    z[b * m + k] = c2r_merge_point(in[i.at(b, k)], in[i.at(b, m - k)], w[k], k == 0);
  }
}

template <class T>
__global__ void real_length_one_kernel(const void* in, StridedLines i, void* out, StridedLines o, bool r2c) {
  for (long long b = blockIdx.x * (long long)blockDim.x + threadIdx.x; b < i.batch; b += (long long)blockDim.x * gridDim.x) {
    if (r2c) static_cast<Complex<T>*>(out)[o.at(b, 0)] = {static_cast<const T*>(in)[i.at(b, 0)], T(0)};
    else static_cast<T*>(out)[o.at(b, 0)] = static_cast<const Complex<T>*>(in)[i.at(b, 0)].re;
  }
}

}  // namespace

template <class T>
void launch_copy_real_lines(const T* src, const StridedLines& src_lines, T* dst, const StridedLines& dst_lines,
                            StreamHandle stream) {
  GRIDFLOW_REQUIRE(src_lines.count == dst_lines.count && src_lines.batch == dst_lines.batch,
                   "real line copy between shapes of different sizes");
  copy_real_lines_kernel<T><<<blocks_for(src_lines.count * src_lines.batch), threads, 0, stream>>>(src, src_lines, dst,
                                                                                                   dst_lines);
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
}

template <class T>
void launch_r2c_split(const Complex<T>* z_spectrum, std::int64_t m, std::int64_t batch, const Complex<T>* w,
                      Complex<T>* spectrum, const StridedLines& spectrum_lines, StreamHandle stream) {
  r2c_split_kernel<T><<<blocks_for((m + 1) * batch), threads, 0, stream>>>(z_spectrum, m, batch, w, spectrum,
                                                                           spectrum_lines);
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
}

template <class T>
void launch_c2r_merge(const Complex<T>* spectrum, const StridedLines& spectrum_lines, const Complex<T>* w,
                      Complex<T>* z_spectrum, std::int64_t m, std::int64_t batch, StreamHandle stream) {
  c2r_merge_kernel<T><<<blocks_for(m * batch), threads, 0, stream>>>(spectrum, spectrum_lines, w, z_spectrum, m, batch);
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
}

template <class T>
void launch_real_length_one(const void* in, const StridedLines& in_lines, void* out, const StridedLines& out_lines,
                            bool real_to_complex, StreamHandle stream) {
  real_length_one_kernel<T><<<blocks_for(in_lines.batch), threads, 0, stream>>>(in, in_lines, out, out_lines,
                                                                                 real_to_complex);
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
}

#define GRIDFLOW_INSTANTIATE_FLOW_GRAPH_REAL(T)                                                                      \
  template void launch_copy_real_lines<T>(const T*, const StridedLines&, T*, const StridedLines&, StreamHandle);     \
  template void launch_r2c_split<T>(const Complex<T>*, std::int64_t, std::int64_t, const Complex<T>*, Complex<T>*,   \
                                    const StridedLines&, StreamHandle);                                              \
  template void launch_c2r_merge<T>(const Complex<T>*, const StridedLines&, const Complex<T>*, Complex<T>*,          \
                                    std::int64_t, std::int64_t, StreamHandle);                                       \
  template void launch_real_length_one<T>(const void*, const StridedLines&, void*, const StridedLines&, bool,        \
                                          StreamHandle);
GRIDFLOW_INSTANTIATE_FLOW_GRAPH_REAL(float)
GRIDFLOW_INSTANTIATE_FLOW_GRAPH_REAL(double)
#undef GRIDFLOW_INSTANTIATE_FLOW_GRAPH_REAL

}  // namespace gridflow::kernels::fft
