// PLACEHOLDER on branch fft-base only, replaced by its owner's implementation before anything lands on main.
#include "kernels/fft/flow_graph_tunables.hpp"
#include "mesh/check.hpp"
namespace gridflow::kernels::fft {
std::string FlowGraphTunables::to_string() const { return "onchip"; }
FlowGraphTunables FlowGraphTunables::parse(const std::string&) { return {}; }
std::vector<FlowGraphTunables> FlowGraphTunables::candidates(long long, bool) { return {FlowGraphTunables{}}; }
}
