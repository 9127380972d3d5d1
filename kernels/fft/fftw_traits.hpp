#pragma once
// FftwTraits<T>: FFTW's double (fftw_*) and float (fftwf_*) APIs behind one name, so the code
// above them is written once as a template. Private to the FFT kernels.
#include <fftw3.h>

namespace gridflow::kernels::fft {

template <class T>
struct FftwTraits;

template <>
struct FftwTraits<double> {
  using Plan = fftw_plan;
  using Complex = fftw_complex;
  static Plan plan_many_r2c(int rank, const int* n, int howmany, double* in, const int* inembed, int istride, int idist,
                            Complex* out, const int* onembed, int ostride, int odist, unsigned flags) {
    return fftw_plan_many_dft_r2c(rank, n, howmany, in, inembed, istride, idist, out, onembed, ostride, odist, flags);
  }
  static void execute(Plan p) { fftw_execute(p); }
  static void destroy(Plan p) { fftw_destroy_plan(p); }
};

template <>
struct FftwTraits<float> {
  using Plan = fftwf_plan;
  using Complex = fftwf_complex;
  static Plan plan_many_r2c(int rank, const int* n, int howmany, float* in, const int* inembed, int istride, int idist,
                            Complex* out, const int* onembed, int ostride, int odist, unsigned flags) {
    return fftwf_plan_many_dft_r2c(rank, n, howmany, in, inembed, istride, idist, out, onembed, ostride, odist, flags);
  }
  static void execute(Plan p) { fftwf_execute(p); }
  static void destroy(Plan p) { fftwf_destroy_plan(p); }
};

}  // namespace gridflow::kernels::fft
