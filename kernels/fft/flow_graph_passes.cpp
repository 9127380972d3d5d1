#include "kernels/fft/flow_graph_passes.hpp"

#include <string>

#include "mesh/check.hpp"

namespace gridflow::kernels::fft {

FlowGraphPasses FlowGraphPasses::for_length(std::int64_t length, std::int64_t pass_limit) {
  GRIDFLOW_REQUIRE(length >= 1 && (length & (length - 1)) == 0,
                   "flow_graph transform length " + std::to_string(length) + " is not a power of two");
  FlowGraphPasses p;
  p.length = length;
  if (length <= pass_limit) {
    p.n2 = length;
    return p;
  }
  int m = 0;
  while ((std::int64_t(1) << m) < length) ++m;
  p.n1 = std::int64_t(1) << (m / 2);
  p.n2 = std::int64_t(1) << (m - m / 2);
  GRIDFLOW_REQUIRE(p.n2 <= pass_limit, "flow_graph transform length " + std::to_string(length) + " needs passes of " +
                                           std::to_string(p.n2) + " points, above the kernel's " +
                                           std::to_string(pass_limit));
  return p;
}

OnChipShape FlowGraphPasses::single(std::int64_t batch, ComplexLines a, ComplexLines b, int sign) const {
  OnChipShape s;
  s.n = length;
  s.batch = s.inner_lines = batch;  // one group: the transforms are the lines
  s.in_stride = a.stride, s.in_distance = a.distance;
  s.out_stride = b.stride, s.out_distance = b.distance;
  s.sign = sign;
  return s;
}

OnChipShape FlowGraphPasses::column_pass(std::int64_t batch, ComplexLines a, int sign) const {
  OnChipShape s;
  s.n = n1;
  s.batch = batch * n2;
  s.inner_lines = n2;  // line (o, i = j2): element j1 at j1 n2 + j2 of transform o
  s.in_stride = n2 * a.stride, s.in_distance = a.stride, s.in_outer_distance = a.distance;
  s.out_stride = n2, s.out_distance = 1, s.out_outer_distance = length;
  s.sign = sign;
  s.twiddle_length = length;  // output k1 of line j2 times W_L^(j2 k1)
  return s;
}

OnChipShape FlowGraphPasses::row_pass(std::int64_t batch, ComplexLines b, int sign) const {
  OnChipShape s;
  s.n = n2;
  s.batch = batch * n1;
  s.inner_lines = n1;  // line (o, i = k1): element j2 at k1 n2 + j2 of the scratch
  s.in_stride = 1, s.in_distance = n2, s.in_outer_distance = length;
  s.out_stride = n1 * b.stride, s.out_distance = b.stride, s.out_outer_distance = b.distance;
  s.sign = sign;
  return s;
}

}  // namespace gridflow::kernels::fft
