// The host RealFftBatch: one FFTW advanced-interface plan per batch shape.
#include <limits>
#include <memory>
#include <string>
#include <type_traits>

#include "kernels/fft/fftw_traits.hpp"
#include "kernels/fft/real_fft_batch.hpp"
#include "mesh/check.hpp"

namespace gridflow::kernels::fft {

namespace {

template <class T>
class FftwBatch final : public RealFftBatch<T> {
  using Fftw = FftwTraits<T>;
  struct Destroy {
    void operator()(typename Fftw::Plan p) const { Fftw::destroy(p); }
  };

 public:
  FftwBatch(const RealFftShape& s, T* real, Complex<T>* spectrum) {
    constexpr auto int_max = std::numeric_limits<int>::max();
    GRIDFLOW_REQUIRE(s.n >= 1 && s.batch >= 1 && s.real_elements() <= int_max && 2 * s.spectrum_elements() <= int_max,
                     "FFTW batch of " + std::to_string(s.batch) + " lines of length " + std::to_string(s.n) +
                         " does not fit FFTW's int sizes");
    const int n = static_cast<int>(s.n), batch = static_cast<int>(s.batch), half = n / 2 + 1;
    const int stride = s.interleaved ? batch : 1;
    const int real_distance = s.interleaved ? 1 : n, spectrum_distance = s.interleaved ? 1 : half;
    m_plan.reset(Fftw::plan_many_r2c(1, &n, batch, real, nullptr, stride, real_distance,
                                     reinterpret_cast<typename Fftw::Complex*>(spectrum), nullptr, stride,
                                     spectrum_distance, FFTW_ESTIMATE));
    GRIDFLOW_REQUIRE(m_plan != nullptr, "FFTW could not plan " + std::to_string(batch) + " real FFTs of length " +
                                            std::to_string(n));
  }
  void execute() override { Fftw::execute(m_plan.get()); }

 private:
  std::unique_ptr<std::remove_pointer_t<typename Fftw::Plan>, Destroy> m_plan;
};

}  // namespace

template <class T>
std::unique_ptr<RealFftBatch<T>> make_fftw_batch(const RealFftShape& shape, T* real, Complex<T>* spectrum) {
  static_assert(sizeof(Complex<T>) == sizeof(typename FftwTraits<T>::Complex), "Complex<T> must match FFTW's layout");
  return std::make_unique<FftwBatch<T>>(shape, real, spectrum);
}

template std::unique_ptr<RealFftBatch<float>> make_fftw_batch<float>(const RealFftShape&, float*, Complex<float>*);
template std::unique_ptr<RealFftBatch<double>> make_fftw_batch<double>(const RealFftShape&, double*, Complex<double>*);

}  // namespace gridflow::kernels::fft
