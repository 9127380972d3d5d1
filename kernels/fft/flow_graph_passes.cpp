#include "kernels/fft/flow_graph_passes.hpp"

#include <string>

#include "mesh/check.hpp"

namespace gridflow::kernels::fft {

namespace {

int log2_of(std::int64_t power_of_two) {
  int m = 0;
  while ((std::int64_t(1) << m) < power_of_two) ++m;
  return m;
}

/// 2^m as p ascending powers of two, as equal as can be.
std::vector<std::int64_t> balanced(int m, int p) {
  std::vector<std::int64_t> f;
  for (int q = 0; q < p; ++q) f.push_back(std::int64_t(1) << (m / p + (q >= p - m % p ? 1 : 0)));
  return f;
}

}  // namespace

FlowGraphPasses FlowGraphPasses::for_length(std::int64_t length, std::int64_t pass_limit, int passes) {
  GRIDFLOW_REQUIRE(length >= 1 && (length & (length - 1)) == 0,
                   "flow_graph transform length " + std::to_string(length) + " is not a power of two");
  const int m = log2_of(length), limit = log2_of(pass_limit + 1) - 1;  // 2^limit <= pass_limit
  const auto fits = [&](int p) { return p >= 1 && p <= std::max(m, 1) && (m + p - 1) / p <= limit; };
  int p = passes;
  if (p == 0) {
    for (p = 1; p < most_passes && !fits(p); ++p) {
    }
  }
  GRIDFLOW_REQUIRE(p >= 1 && p <= most_passes, "flow_graph: " + std::to_string(passes) + " passes, expected 1.." +
                                                   std::to_string(most_passes) + " (0: automatic)");
  GRIDFLOW_REQUIRE(fits(p), "flow_graph transform length " + std::to_string(length) + " cannot be split into " +
                                std::to_string(p) + " passes of at most " + std::to_string(pass_limit) + " points");
  FlowGraphPasses s;
  s.length = length;
  s.factors = balanced(m, p);
  return s;
}

OnChipShape FlowGraphPasses::pass(int q, std::int64_t batch, ComplexLines a, ComplexLines b, int sign) const {
  GRIDFLOW_REQUIRE(q >= 0 && q < count(), "flow_graph: pass " + std::to_string(q) + " of " + std::to_string(count()));
  OnChipShape s;
  s.n = factors[q];
  s.batch = batch * (length / s.n);
  s.sign = sign;
  if (count() == 1) {  // the transforms are the lines
    s.inner_lines = batch;
    s.in_stride = a.stride, s.in_distance = a.distance;
    s.out_stride = b.stride, s.out_distance = b.distance;
    return s;
  }
  std::int64_t column = 1;  // M_q: the elements after digit q, the columns of pass q
  for (int r = q + 1; r < count(); ++r) column *= factors[r];
  const std::int64_t sub_length = s.n * column;  // the length of the transforms of pass q
  if (q < count() - 1) {
    // Lines (outer: o and the digits k before q, inner: the column j'); element j_q at j_q M_q.
    s.inner_lines = column;
    const bool first = q == 0;
    s.in_stride = column * (first ? a.stride : 1);
    s.in_distance = first ? a.stride : 1;
    s.in_outer_distance = first ? a.distance : sub_length;
    s.out_stride = column, s.out_distance = 1, s.out_outer_distance = sub_length;
    s.twiddle_length = sub_length;  // element k_q of column j' times W^(k_q j')
    return s;
  }
  // The last pass: rows of n_p in the scratch, lines ordered k1 fastest (then k2, then o).
  const std::int64_t n1 = factors[0];
  s.in_stride = 1, s.in_outer_distance = length;
  s.out_outer_distance = b.distance;
  s.inner_lines = n1;
  s.in_distance = length / n1;  // k1 moves a row by n2 .. np
  s.out_distance = b.stride;    // bin k1
  s.out_stride = length / s.n * b.stride;
  if (count() == 3) {
    s.mid_lines = factors[1];
    s.in_mid_distance = s.n;  // k2 moves a row by np
    s.out_mid_distance = n1 * b.stride;
  }
  return s;
}

}  // namespace gridflow::kernels::fft
