// The contiguous-lines on-chip FFT kernels in float (flow_graph_lines_cuda.cuh); the other precision
// compiles beside it in flow_graph_lines_double.cu.
#include "kernels/fft/flow_graph_lines_cuda.cuh"

namespace gridflow::kernels::fft {

template void launch_onchip_lines_fft<float>(const Complex<float>*, Complex<float>*, const OnChipShape&, const FlowGraphTunables&,
                                          StreamHandle);

}  // namespace gridflow::kernels::fft
