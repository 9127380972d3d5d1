// PLACEHOLDER on branch fft-base only, replaced by its owner's implementation before anything lands on main.
#include "kernels/fft/fft_plan.hpp"
#include "mesh/check.hpp"
namespace gridflow::kernels::fft {
template <class T>
std::unique_ptr<FftPlan<T>> make_fftw_plan(const FftLayout&, const FftTunables&) { throw Error("fftw placeholder"); }
template std::unique_ptr<FftPlan<float>> make_fftw_plan<float>(const FftLayout&, const FftTunables&);
template std::unique_ptr<FftPlan<double>> make_fftw_plan<double>(const FftLayout&, const FftTunables&);
}
