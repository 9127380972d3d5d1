#pragma once
namespace gridflow::kernels::fft {

/// A complex value laid out as T[2], like fftw_complex / fftwf_complex and cufftDoubleComplex /
/// cufftComplex, so buffers of it are handed to either library as they are.
template <class T>
struct Complex {
  T re, im;
};

}  // namespace gridflow::kernels::fft
