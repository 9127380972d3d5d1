#include "kernels/core/for_each_cuda.cuh"
#include "kernels/filter/fft_correlate_cuda.hpp"

namespace gridflow::kernels::filter {

template <class T, int Dim>
void launch_fft_step_cuda(const FftGather<T, Dim>& op, long long n, StreamHandle stream) {
  core::for_each_index_cuda(n, op, stream);
}
template <class T, int Dim>
void launch_fft_step_cuda(const FftMultiply<T, Dim>& op, long long n, StreamHandle stream) {
  core::for_each_index_cuda(n, op, stream);
}
template <class T, int Dim>
void launch_fft_step_cuda(const FftScatter<T, Dim>& op, long long n, StreamHandle stream) {
  core::for_each_index_cuda(n, op, stream);
}

#define GRIDFLOW_INSTANTIATE_FFT_STEPS(T, D)                                                        \
  template void launch_fft_step_cuda<T, D>(const FftGather<T, D>&, long long, StreamHandle);       \
  template void launch_fft_step_cuda<T, D>(const FftMultiply<T, D>&, long long, StreamHandle);     \
  template void launch_fft_step_cuda<T, D>(const FftScatter<T, D>&, long long, StreamHandle);
GRIDFLOW_INSTANTIATE_FFT_STEPS(float, 2)
GRIDFLOW_INSTANTIATE_FFT_STEPS(double, 2)
GRIDFLOW_INSTANTIATE_FFT_STEPS(float, 3)
GRIDFLOW_INSTANTIATE_FFT_STEPS(double, 3)
#undef GRIDFLOW_INSTANTIATE_FFT_STEPS

}  // namespace gridflow::kernels::filter
