#pragma once
// Launchers of the FFT variant's pointwise steps (fft_correlate_point.hpp) on the device, one
// thread per buffer value; no CUDA syntax, so plain C++ can call them. Asynchronous on `stream`.
#include "kernels/filter/fft_correlate_point.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::filter {

template <class T, int Dim>
void launch_fft_step_cuda(const FftGather<T, Dim>& op, long long n, StreamHandle stream);
template <class T, int Dim>
void launch_fft_step_cuda(const FftMultiply<T, Dim>& op, long long n, StreamHandle stream);
template <class T, int Dim>
void launch_fft_step_cuda(const FftScatter<T, Dim>& op, long long n, StreamHandle stream);

}  // namespace gridflow::kernels::filter
