// The device RealFftBatch: one cuFFT plan (advanced layout) per batch shape, on the caller's stream.
#include <cuda_runtime_api.h>
#include <cufft.h>

#include <limits>
#include <memory>
#include <string>
#include <type_traits>

#include "kernels/fft/real_fft_batch.hpp"
#include "mesh/check.hpp"

namespace gridflow::kernels::fft {

namespace {

// cuFFT is called from this file only, so its check lives here rather than in mesh/check.hpp.
void check_cufft(cufftResult rc, const char* call, const char* file, int line) {
  if (rc != CUFFT_SUCCESS)
    detail::throw_call_failure("cuFFT", call, "cufftResult " + std::to_string(static_cast<int>(rc)), file, line);
}
#define GRIDFLOW_CUFFT_CHECK(call) check_cufft((call), #call, __FILE__, __LINE__)

template <class T>
class CufftBatch final : public RealFftBatch<T> {
  static constexpr bool is_double = std::is_same_v<T, double>;

 public:
  CufftBatch(const RealFftShape& s, T* real, Complex<T>* spectrum, StreamHandle stream)
      : m_real(real), m_spectrum(spectrum) {
    constexpr auto int_max = std::numeric_limits<int>::max();
    GRIDFLOW_REQUIRE(s.n >= 1 && s.batch >= 1 && s.real_elements() <= int_max && 2 * s.spectrum_elements() <= int_max,
                     "cuFFT batch of " + std::to_string(s.batch) + " lines of length " + std::to_string(s.n) +
                         " does not fit cuFFT's int sizes");
    int n = static_cast<int>(s.n), half = n / 2 + 1;
    const int batch = static_cast<int>(s.batch);
    const int stride = s.interleaved ? batch : 1;
    // Non-null embeds make cuFFT honour the strides and distances (rank 1 reads no embed value).
    GRIDFLOW_CUFFT_CHECK(cufftPlanMany(&m_plan, 1, &n, &n, stride, s.interleaved ? 1 : n, &half, stride,
                                       s.interleaved ? 1 : half, is_double ? CUFFT_D2Z : CUFFT_R2C, batch));
    m_planned = true;
    GRIDFLOW_CUFFT_CHECK(cufftSetStream(m_plan, stream));
  }
  ~CufftBatch() override {
    if (m_planned) cufftDestroy(m_plan);
  }
  CufftBatch(const CufftBatch&) = delete;
  CufftBatch& operator=(const CufftBatch&) = delete;

  void execute() override {
    if constexpr (is_double)
      GRIDFLOW_CUFFT_CHECK(cufftExecD2Z(m_plan, m_real, reinterpret_cast<cufftDoubleComplex*>(m_spectrum)));
    else
      GRIDFLOW_CUFFT_CHECK(cufftExecR2C(m_plan, m_real, reinterpret_cast<cufftComplex*>(m_spectrum)));
  }

 private:
  cufftHandle m_plan{};
  bool m_planned = false;
  T* m_real;
  Complex<T>* m_spectrum;
};

}  // namespace

template <class T>
std::unique_ptr<RealFftBatch<T>> make_cufft_batch(const RealFftShape& shape, T* real, Complex<T>* spectrum,
                                                  StreamHandle stream) {
  static_assert(sizeof(Complex<T>) == 2 * sizeof(T), "Complex<T> must match cuFFT's layout");
  return std::make_unique<CufftBatch<T>>(shape, real, spectrum, stream);
}

template std::unique_ptr<RealFftBatch<float>> make_cufft_batch<float>(const RealFftShape&, float*, Complex<float>*,
                                                                      StreamHandle);
template std::unique_ptr<RealFftBatch<double>> make_cufft_batch<double>(const RealFftShape&, double*, Complex<double>*,
                                                                        StreamHandle);

}  // namespace gridflow::kernels::fft
