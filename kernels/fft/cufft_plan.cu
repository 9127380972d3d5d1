// PLACEHOLDER on branch fft-base only, replaced by its owner's implementation before anything lands on main.
#include "kernels/fft/fft_plan.hpp"
#include "mesh/check.hpp"
namespace gridflow::kernels::fft {
template <class T>
std::unique_ptr<FftPlan<T>> make_cufft_plan(const FftLayout&, StreamHandle, const FftTunables&) { throw Error("cufft placeholder"); }
template std::unique_ptr<FftPlan<float>> make_cufft_plan<float>(const FftLayout&, StreamHandle, const FftTunables&);
template std::unique_ptr<FftPlan<double>> make_cufft_plan<double>(const FftLayout&, StreamHandle, const FftTunables&);
}
