#pragma once
// FlowGraphPasses: how the device plan runs a batch of complex transforms of one length as
// on-chip launches (OnChipShape), plain C++ so the unit tests run the same composition on the
// host. Up to the kernel's pass limit, one pass. Beyond it, p = 2 or 3 passes over L = n1 ... np
// (the four-step decomposition applied recursively, each pass one launch that reads and writes
// every element once). Write the input index j = j1 (n2..np) + j2 (n3..np) + ... + jp and the
// output bin k = k1 + n1 k2 + n1 n2 k3 + ...; with M_q = n_q+1 ... n_p:
//   pass q < p  for each (o, k1..k_q-1, j_q+1..j_p) (the columns), the n_q-point transform over
//               j_q (stride M_q), element k_q times W_{n_q M_q}^(k_q j') (fused; j' < M_q the
//               column), written in place of j_q: pass 1 reads the input, writes the scratch
//               (batch x L elements), later passes work in the scratch;
//   pass p      for each (o, k1..kp-1), the np-point transform of a contiguous row of the scratch,
//               element kp written to its bin of the output: the transposes cost nothing extra.
// The column passes read and write whole sectors or cache lines as a block takes neighbouring
// columns (launch_onchip_fft arranges that); the last pass's lines are ordered k1 fastest, so a
// block's stores, restaged through shared memory, fill them too. Every pass addresses the
// caller's stride and distances directly.
#include <cstdint>
#include <vector>

#include "kernels/fft/flow_graph_cuda.hpp"

namespace gridflow::kernels::fft {

/// Where the lines of a complex operand are: element j of line b at b * distance + j * stride.
struct ComplexLines {
  std::int64_t stride = 1, distance = 0;
};

struct FlowGraphPasses {
  static constexpr int most_passes = 3;
  std::int64_t length = 1;             ///< the complex transform length L, a power of two
  std::vector<std::int64_t> factors;   ///< n1..np, powers of two, product L, ascending

  /// The passes for length L (a power of two) when one launch transforms at most pass_limit
  /// points: `passes` of them, or for 0 the fewest that fit (two passes of 2^24 float ran as fast
  /// as three on an H100, bench/results/fft_bench_h100.json; the tuner measures both). Throws
  /// Error when L is no power of two or cannot be split so.
  static FlowGraphPasses for_length(std::int64_t length, std::int64_t pass_limit, int passes = 0);

  int count() const { return static_cast<int>(factors.size()); }
  bool multi_pass() const { return count() > 1; }
  std::int64_t shortest() const { return factors.front(); }
  std::int64_t longest() const { return factors.back(); }

  /// Pass q (0-based) of `batch` transforms from lines `a` of the input (pass 0) or the scratch
  /// to the scratch or (last pass) lines `b` of the output.
  OnChipShape pass(int q, std::int64_t batch, ComplexLines a, ComplexLines b, int sign) const;

  /// Runs the batch through `run_pass(const E* in, E* out, const OnChipShape&)`: once from `in`
  /// to `out`, or in to scratch (batch x length elements), scratch to scratch, scratch to out.
  template <class E, class RunPass>
  void run(std::int64_t batch, const E* in, ComplexLines a, E* out, ComplexLines b, E* scratch, int sign,
           RunPass&& run_pass) const {
    for (int q = 0; q < count(); ++q) {
      const E* from = q == 0 ? in : static_cast<const E*>(scratch);
      E* to = q == count() - 1 ? out : scratch;
      run_pass(from, to, pass(q, batch, a, b, sign));
    }
  }
};

}  // namespace gridflow::kernels::fft
