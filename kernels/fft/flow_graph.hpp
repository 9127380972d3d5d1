#pragma once
// FlowGraph: the radix-2 FFT of length n = 2^m written as its flow graph, the seed's matrix of
// butterfly index pairs per stage. The same tables drive the host loop (host_flow_graph_plan.cpp)
// and the radix2_table CUDA kernel (flow_graph_radix2_cuda.hpp), which uploads them as they are.
//
// Decimation in time, in place: position p of the work array first holds input element
// input_order[p] (bit reversal of p); then stage s = 0..m-1 runs the n/2 butterflies t
//   a = pairs[s][2t], b = pairs[s][2t + 1], w = W^twiddles[s][t]
//   work[a], work[b] = work[a] + work[b] w, work[a] - work[b] w
// with W = exp(-2 pi i / n) forward and exp(+2 pi i / n) inverse; afterwards work[k] = X_k.
// Stage s pairs positions 2^s apart in groups of 2^(s+1), so every position appears exactly once
// per stage (the butterflies of a stage are independent: one thread each) and exponents lie in
// [0, n/2).
#include <cstdint>
#include <vector>

namespace gridflow::kernels::fft {

struct FlowGraph {
  std::int64_t n = 1;  ///< transform length, a power of two
  int stages = 0;      ///< log2(n)
  std::vector<std::int32_t> pairs;        ///< stages x n: [s * n + 2t], [s * n + 2t + 1] are butterfly t's inputs
  std::vector<std::int32_t> twiddles;     ///< stages x n/2: [s * n/2 + t] is butterfly t's exponent k of W^k
  std::vector<std::int32_t> input_order;  ///< n: work position p starts with input element input_order[p]

  const std::int32_t* stage_pairs(int s) const { return pairs.data() + s * n; }
  const std::int32_t* stage_twiddles(int s) const { return twiddles.data() + s * (n / 2); }
};

/// The tables of length n (a power of two, 1..2^30; memory 6 n log2(n) + 4 n bytes). Throws Error
/// for any other n.
FlowGraph make_flow_graph(std::int64_t n);

/// W^k for k in [0, n/2): exp(sign 2 pi i k / n), sign -1 forward and +1 inverse, computed in long
/// double and rounded to T once, as interleaved (re, im) pairs.
template <class T>
std::vector<T> flow_graph_twiddle_values(std::int64_t n, int sign);

}  // namespace gridflow::kernels::fft
