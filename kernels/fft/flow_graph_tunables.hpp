#pragma once
// FlowGraphTunables: the knobs of the flow_graph CUDA backend (flow_graph_cuda.hpp), declared
// beside its kernels and searched by the FFT tuner. A variant is named by a short string
// (FftTunables::variant), e.g. "radix2_table", "onchip/r8/l4/tw1", for a length split into
// passes "onchip/r8/l0/tw0/p3", for the contiguous-lines kernel "onchip/r16/l1/tw1/e1" or, with its
// staged loads, "onchip/r16/l1/tw1/e1/s1"; parse() and to_string() are inverses, and parse() throws
// Error naming the part it does not understand.
#include <string>
#include <vector>

namespace gridflow::kernels::fft {

struct FlowGraphTunables {
  enum class Kernel {
    radix2_table,  ///< the seed: one block per transform, a radix-2 butterfly per thread and stage,
                   ///< index pairs and twiddles read from the flow-graph tables, __syncthreads() between stages
    onchip,        ///< several transforms per block, radix-r butterflies in registers, shared-memory exchanges
  };
  Kernel kernel = Kernel::onchip;
  int radix = 8;              ///< onchip: elements per thread per pass in registers (2, 4, 8, 16)
  int lines_per_block = 0;    ///< onchip: transforms per block; 0 chooses from the length
  bool twiddle_table = true;  ///< onchip: twiddles from a precomputed table (true) or sincospi (false)
  int passes = 0;             ///< onchip, lengths beyond one launch: 2 or 3 passes; 0 chooses (FlowGraphPasses)
  /// onchip: 0 runs the general kernel (any strides, fused four-step twiddle, transposed store);
  /// 1 or 2 the contiguous-lines kernel (flow_graph_lines_cuda.hpp) with that many shared planes
  /// per exchange (1: real then imaginary parts, half the shared memory, two more barriers) on
  /// launches whose lines are contiguous on both sides; other launches run the general kernel.
  int planes = 0;
  /// Contiguous-lines kernel: persistent blocks that copy their next lines into shared memory
  /// asynchronously (cp.async) while they transform the current ones, so loads stay in flight
  /// where registers allow few resident blocks (long double-precision lines).
  bool staged = false;

  std::string to_string() const;
  static FlowGraphTunables parse(const std::string& variant);
  /// Every variant worth measuring for transforms of length n (a power of two) of precision
  /// T = float (double_precision false) or double: the tuner's search space.
  static std::vector<FlowGraphTunables> candidates(long long n, bool double_precision);
  /// The untuned choice for one launch of length n <= 4096: the contiguous-lines kernel at the
  /// shape that measured best or within about 1% of it on an H100 (bench/results/fft_bench_h100.json).
  static FlowGraphTunables one_pass_default(long long n, bool double_precision);
};

}  // namespace gridflow::kernels::fft
