#pragma once
// FftwTraits<T>: FFTW's double (fftw_*) and float (fftwf_*) APIs behind one name, so the code
// above them is written once as a template. Private to the FFT kernels.
#include <fftw3.h>

#include <cstddef>

namespace gridflow::kernels::fft {

template <class T>
struct FftwTraits;

template <>
struct FftwTraits<double> {
  using Plan = fftw_plan;
  using Complex = fftw_complex;
  static Plan plan_many_c2c(int rank, const int* n, int howmany, Complex* in, const int* inembed, int istride,
                            int idist, Complex* out, const int* onembed, int ostride, int odist, int sign,
                            unsigned flags) {
    return fftw_plan_many_dft(rank, n, howmany, in, inembed, istride, idist, out, onembed, ostride, odist, sign,
                              flags);
  }
  static Plan plan_many_r2c(int rank, const int* n, int howmany, double* in, const int* inembed, int istride, int idist,
                            Complex* out, const int* onembed, int ostride, int odist, unsigned flags) {
    return fftw_plan_many_dft_r2c(rank, n, howmany, in, inembed, istride, idist, out, onembed, ostride, odist, flags);
  }
  static Plan plan_many_c2r(int rank, const int* n, int howmany, Complex* in, const int* inembed, int istride,
                            int idist, double* out, const int* onembed, int ostride, int odist, unsigned flags) {
    return fftw_plan_many_dft_c2r(rank, n, howmany, in, inembed, istride, idist, out, onembed, ostride, odist, flags);
  }
  static void execute(Plan p) { fftw_execute(p); }
  static void execute_c2c(Plan p, Complex* in, Complex* out) { fftw_execute_dft(p, in, out); }
  static void execute_r2c(Plan p, double* in, Complex* out) { fftw_execute_dft_r2c(p, in, out); }
  static void execute_c2r(Plan p, Complex* in, double* out) { fftw_execute_dft_c2r(p, in, out); }
  static void destroy(Plan p) { fftw_destroy_plan(p); }
  static void* allocate(std::size_t bytes) { return fftw_malloc(bytes); }
  static void release(void* p) { fftw_free(p); }
};

template <>
struct FftwTraits<float> {
  using Plan = fftwf_plan;
  using Complex = fftwf_complex;
  static Plan plan_many_c2c(int rank, const int* n, int howmany, Complex* in, const int* inembed, int istride,
                            int idist, Complex* out, const int* onembed, int ostride, int odist, int sign,
                            unsigned flags) {
    return fftwf_plan_many_dft(rank, n, howmany, in, inembed, istride, idist, out, onembed, ostride, odist, sign,
                               flags);
  }
  static Plan plan_many_r2c(int rank, const int* n, int howmany, float* in, const int* inembed, int istride, int idist,
                            Complex* out, const int* onembed, int ostride, int odist, unsigned flags) {
    return fftwf_plan_many_dft_r2c(rank, n, howmany, in, inembed, istride, idist, out, onembed, ostride, odist, flags);
  }
  static Plan plan_many_c2r(int rank, const int* n, int howmany, Complex* in, const int* inembed, int istride,
                            int idist, float* out, const int* onembed, int ostride, int odist, unsigned flags) {
    return fftwf_plan_many_dft_c2r(rank, n, howmany, in, inembed, istride, idist, out, onembed, ostride, odist, flags);
  }
  static void execute(Plan p) { fftwf_execute(p); }
  static void execute_c2c(Plan p, Complex* in, Complex* out) { fftwf_execute_dft(p, in, out); }
  static void execute_r2c(Plan p, float* in, Complex* out) { fftwf_execute_dft_r2c(p, in, out); }
  static void execute_c2r(Plan p, Complex* in, float* out) { fftwf_execute_dft_c2r(p, in, out); }
  static void destroy(Plan p) { fftwf_destroy_plan(p); }
  static void* allocate(std::size_t bytes) { return fftwf_malloc(bytes); }
  static void release(void* p) { fftwf_free(p); }
};

}  // namespace gridflow::kernels::fft
