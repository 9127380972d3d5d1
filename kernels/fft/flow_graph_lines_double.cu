// The contiguous-lines on-chip FFT kernels in double (flow_graph_lines_cuda.cuh); the other precision
// compiles beside it in flow_graph_lines_float.cu.
#include "kernels/fft/flow_graph_lines_cuda.cuh"

namespace gridflow::kernels::fft {

template void launch_onchip_lines_fft<double>(const Complex<double>*, Complex<double>*, const OnChipShape&, const FlowGraphTunables&,
                                          StreamHandle);

}  // namespace gridflow::kernels::fft
