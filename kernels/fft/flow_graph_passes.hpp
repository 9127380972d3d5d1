#pragma once
// FlowGraphPasses: how the device plan runs a batch of complex transforms of one length as
// on-chip launches (OnChipShape), plain C++ so the unit tests run the same composition on the
// host. Up to the kernel's pass limit, one pass. Beyond it, four-step with L = n1 n2
// (n1 = 2^floor(m/2), n2 = 2^ceil(m/2)), for input element j1 n2 + j2 and output bin k1 + n1 k2:
//   column pass  for each j2, the n1-point transform over j1, times W_L^(j2 k1) (fused), into
//                scratch[k1 n2 + j2] (scratch holds batch x L elements, transform after transform);
//   row pass     for each k1, the n2-point transform of scratch[k1 n2 + j2] over j2, element k2
//                written to bin k1 + n1 k2 of the output: the transpose costs nothing extra.
// Both passes address the caller's stride and distances directly (OnChipShape's outer level is
// the transform, the inner one its columns or rows), so in == out needs no extra copy.
#include <cstdint>

#include "kernels/fft/flow_graph_cuda.hpp"

namespace gridflow::kernels::fft {

/// Where the lines of a complex operand are: element j of line b at b * distance + j * stride.
struct ComplexLines {
  std::int64_t stride = 1, distance = 0;
};

struct FlowGraphPasses {
  std::int64_t length = 1;  ///< the complex transform length L, a power of two
  std::int64_t n1 = 1;      ///< column pass length; 1: no split, one pass of n2 = L
  std::int64_t n2 = 1;      ///< row pass length (or L)

  /// The passes for length L (a power of two, 1..pass_limit^2) when one launch transforms at most
  /// pass_limit points. Throws Error when L needs a pass longer than pass_limit.
  static FlowGraphPasses for_length(std::int64_t length, std::int64_t pass_limit);
  bool four_step() const { return n1 > 1; }

  /// The one pass: lines `a` of the input to lines `b` of the output.
  OnChipShape single(std::int64_t batch, ComplexLines a, ComplexLines b, int sign) const;
  /// Four-step pass 1: lines `a` of the input into the scratch.
  OnChipShape column_pass(std::int64_t batch, ComplexLines a, int sign) const;
  /// Four-step pass 2: the scratch to lines `b` of the output.
  OnChipShape row_pass(std::int64_t batch, ComplexLines b, int sign) const;

  /// Runs the batch through `run_pass(const E* in, E* out, const OnChipShape&)`: once from `in`
  /// to `out`, or in to scratch (batch x length elements) and scratch to out.
  template <class E, class RunPass>
  void run(std::int64_t batch, const E* in, ComplexLines a, E* out, ComplexLines b, E* scratch, int sign,
           RunPass&& run_pass) const {
    if (!four_step()) {
      run_pass(in, out, single(batch, a, b, sign));
      return;
    }
    run_pass(in, scratch, column_pass(batch, a, sign));
    run_pass(static_cast<const E*>(scratch), out, row_pass(batch, b, sign));
  }
};

}  // namespace gridflow::kernels::fft
