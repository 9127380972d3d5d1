#include <cuda_runtime.h>

#include <algorithm>

#include "kernels/fft/dst1_cuda.hpp"
#include "kernels/fft/dst1_point.hpp"
#include "mesh/check.hpp"

namespace gridflow::kernels::fft {

namespace {

constexpr int threads = 256;
constexpr unsigned full_warp = 0xffffffffu;

unsigned blocks_for(long long work, int per_block) {
  return static_cast<unsigned>(std::max<long long>(1, std::min<long long>((work + per_block - 1) / per_block, 65535)));
}

// One thread per (line, j). Neighbouring threads take neighbouring j (contiguous layout) or
// neighbouring lines (interleaved), whichever is contiguous in both the field and the buffer.
template <class T>
__global__ void fold_kernel(Dst1Lines g, const T* __restrict__ field, const T* __restrict__ sines, T* __restrict__ real,
                            long long first_line, long long count) {
  const long long total = count * g.n;
  for (long long q = blockIdx.x * (long long)blockDim.x + threadIdx.x; q < total; q += (long long)blockDim.x * gridDim.x) {
    const long long b = g.interleaved ? q % count : q / g.n;
    const long long j = g.interleaved ? q / count : q % g.n;
    const long long line = first_line + b;
    real[g.real_offset(b, j)] =
        j == 0 ? T(0) : dst1_fold_point(field[g.field_offset(line, j)], field[g.field_offset(line, g.n - j)], sines[j]);
  }
}

// Interleaved layout: one thread walks a whole line, so the odd outputs' running sum is the host's.
template <class T>
__global__ void unfold_walk_kernel(Dst1Lines g, const Complex<T>* __restrict__ spectrum, T* __restrict__ field,
                                   long long first_line, long long count) {
  for (long long b = blockIdx.x * (long long)blockDim.x + threadIdx.x; b < count; b += (long long)blockDim.x * gridDim.x) {
    const long long line = first_line + b;
    T odd = T(0);
    for (long long k = 0; 2 * k <= g.n - 1; ++k) {
      const Complex<T> y = spectrum[g.spectrum_offset(b, k)];
      if (k >= 1) field[g.field_offset(line, 2 * k)] = dst1_even_point(y);
      if (2 * k + 1 <= g.n - 1) {
        odd += dst1_odd_increment_point(y, k);
        field[g.field_offset(line, 2 * k + 1)] = odd;
      }
    }
  }
}

// Contiguous layout (axis 0): one warp per line, 32 frequencies at a time, the running sum as a
// warp scan plus the carry of the previous 32, so loads and stores stay contiguous.
template <class T>
__global__ void unfold_warp_kernel(Dst1Lines g, const Complex<T>* __restrict__ spectrum, T* __restrict__ field,
                                   long long first_line, long long count) {
  const int lane = threadIdx.x;  // blockDim.x == 32
  for (long long b = blockIdx.x * (long long)blockDim.y + threadIdx.y; b < count; b += (long long)blockDim.y * gridDim.x) {
    const long long line = first_line + b;
    T carry = T(0);
    for (long long k0 = 0; 2 * k0 <= g.n - 1; k0 += 32) {
      const long long k = k0 + lane;
      const bool even = k >= 1 && 2 * k <= g.n - 1, odd = 2 * k + 1 <= g.n - 1;
      const Complex<T> y = even || odd ? spectrum[g.spectrum_offset(b, k)] : Complex<T>{T(0), T(0)};
      T sum = odd ? dst1_odd_increment_point(y, k) : T(0);
      for (int s = 1; s < 32; s <<= 1) {
        const T up = __shfl_up_sync(full_warp, sum, s);
        if (lane >= s) sum += up;
      }
      if (even) field[g.field_offset(line, 2 * k)] = dst1_even_point(y);
      if (odd) field[g.field_offset(line, 2 * k + 1)] = carry + sum;
      carry += __shfl_sync(full_warp, sum, 31);
    }
  }
}

}  // namespace

template <class T>
void launch_dst1_fold_cuda(const Dst1Lines& lines, const T* field, const T* sines, T* real, std::int64_t first_line,
                           std::int64_t count, StreamHandle stream) {
  if (count == 0) return;
  fold_kernel<T><<<blocks_for(count * lines.n, threads), threads, 0, stream>>>(lines, field, sines, real, first_line, count);
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
}

template <class T>
void launch_dst1_unfold_cuda(const Dst1Lines& lines, const Complex<T>* spectrum, T* field, std::int64_t first_line,
                             std::int64_t count, StreamHandle stream) {
  if (count == 0) return;
  if (lines.interleaved) {
    unfold_walk_kernel<T><<<blocks_for(count, threads), threads, 0, stream>>>(lines, spectrum, field, first_line, count);
  } else {
    const dim3 block(32, threads / 32);
    unfold_warp_kernel<T><<<blocks_for(count, block.y), block, 0, stream>>>(lines, spectrum, field, first_line, count);
  }
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
}

#define GRIDFLOW_INSTANTIATE_DST1(T)                                                                                  \
  template void launch_dst1_fold_cuda<T>(const Dst1Lines&, const T*, const T*, T*, std::int64_t, std::int64_t,        \
                                         StreamHandle);                                                              \
  template void launch_dst1_unfold_cuda<T>(const Dst1Lines&, const Complex<T>*, T*, std::int64_t, std::int64_t,       \
                                           StreamHandle);
GRIDFLOW_INSTANTIATE_DST1(float)
GRIDFLOW_INSTANTIATE_DST1(double)
#undef GRIDFLOW_INSTANTIATE_DST1

}  // namespace gridflow::kernels::fft
