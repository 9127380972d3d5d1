// PLACEHOLDER on branch fft-base only, replaced by its owner's implementation before anything lands on main.
#include "kernels/fft/flow_graph_cuda.hpp"
#include "mesh/check.hpp"
namespace gridflow::kernels::fft {
template <class T> std::int64_t max_onchip_length() { return 4096; }
template <class T>
void launch_onchip_fft(const Complex<T>*, Complex<T>*, const OnChipShape&, const FlowGraphTunables&, StreamHandle) { throw Error("onchip placeholder"); }
template std::int64_t max_onchip_length<float>();
template std::int64_t max_onchip_length<double>();
template void launch_onchip_fft<float>(const Complex<float>*, Complex<float>*, const OnChipShape&, const FlowGraphTunables&, StreamHandle);
template void launch_onchip_fft<double>(const Complex<double>*, Complex<double>*, const OnChipShape&, const FlowGraphTunables&, StreamHandle);
}
