// PLACEHOLDER on branch fft-base only, replaced by its owner's implementation before anything lands on main.
#include "kernels/fft/fft_plan.hpp"
#include "mesh/check.hpp"
namespace gridflow::kernels::fft {
template <class T>
std::unique_ptr<FftPlan<T>> make_host_flow_graph_plan(const FftLayout&, const FftTunables&) { throw Error("host flow graph placeholder"); }
template std::unique_ptr<FftPlan<float>> make_host_flow_graph_plan<float>(const FftLayout&, const FftTunables&);
template std::unique_ptr<FftPlan<double>> make_host_flow_graph_plan<double>(const FftLayout&, const FftTunables&);
}
