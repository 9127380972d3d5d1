#pragma once
// RealFftBatch<T>: a planned batch of real-to-complex 1D FFTs of one length,
// Y_k = sum_{j=0}^{N-1} y_j exp(-2 pi i j k / N), k = 0..N/2, between two buffers fixed at planning:
// FFTW on the host (the reference) or cuFFT on the device. The plan is made once, by the factory,
// and freed with the object.
#include <cstdint>
#include <memory>

#include "kernels/fft/complex.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::fft {

struct RealFftShape {
  std::int64_t n = 0;        ///< transform length N
  std::int64_t batch = 0;    ///< transforms per execution
  bool interleaved = false;  ///< line index fastest (real[j batch + b]) instead of line after line (real[b N + j])

  std::int64_t real_elements() const { return n * batch; }
  std::int64_t spectrum_elements() const { return (n / 2 + 1) * batch; }
};

template <class T>
class RealFftBatch {
 public:
  virtual ~RealFftBatch() = default;
  /// spectrum = FFT(real) for every line of the batch. Host: blocks. Device: asynchronous on the
  /// plan's stream. The real buffer is not modified.
  virtual void execute() = 0;
};

/// An FFTW plan (FFTW_ESTIMATE: deterministic, so every rank and run computes the same bits) on
/// host buffers of shape.real_elements() and shape.spectrum_elements(). Throws Error when FFTW
/// cannot plan the shape (above 2^31 elements, for one).
template <class T>
std::unique_ptr<RealFftBatch<T>> make_fftw_batch(const RealFftShape& shape, T* real, Complex<T>* spectrum);

/// A cuFFT plan on device buffers, executing on `stream`. Defined in CUDA builds only (callers
/// reach it through core::run_on_space).
template <class T>
std::unique_ptr<RealFftBatch<T>> make_cufft_batch(const RealFftShape& shape, T* real, Complex<T>* spectrum,
                                                  StreamHandle stream);

}  // namespace gridflow::kernels::fft
