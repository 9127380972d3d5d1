#include "kernels/fft/flow_graph.hpp"

#include <cmath>
#include <string>

#include "mesh/check.hpp"

namespace gridflow::kernels::fft {

namespace {

int log2_exact(std::int64_t n) {
  GRIDFLOW_REQUIRE(n >= 1 && (n & (n - 1)) == 0 && n <= (std::int64_t(1) << 30),
                   "flow-graph FFT length " + std::to_string(n) + " is not a power of two in 1..2^30");
  int m = 0;
  while ((std::int64_t(1) << m) < n) ++m;
  return m;
}

std::int32_t bit_reversed(std::int32_t p, int bits) {
  std::int32_t r = 0;
  for (int b = 0; b < bits; ++b) r |= ((p >> b) & 1) << (bits - 1 - b);
  return r;
}

}  // namespace

FlowGraph make_flow_graph(std::int64_t n) {
  FlowGraph g;
  g.n = n;
  g.stages = log2_exact(n);
  const auto half = n / 2;
  g.pairs.resize(g.stages * n);
  g.twiddles.resize(g.stages * half);
  g.input_order.resize(n);
  for (std::int32_t p = 0; p < n; ++p) g.input_order[p] = bit_reversed(p, g.stages);
  for (int s = 0; s < g.stages; ++s) {
    const std::int64_t span = std::int64_t(1) << s;  // distance between a butterfly's two inputs
    for (std::int64_t t = 0; t < half; ++t) {
      const std::int64_t group = t / span, j = t % span;
      const std::int64_t a = group * 2 * span + j;
      g.pairs[s * n + 2 * t] = static_cast<std::int32_t>(a);
      g.pairs[s * n + 2 * t + 1] = static_cast<std::int32_t>(a + span);
      // W_{2 span}^j = W_n^{j n / (2 span)}
      g.twiddles[s * half + t] = static_cast<std::int32_t>(j * (n / (2 * span)));
    }
  }
  return g;
}

template <class T>
std::vector<T> flow_graph_twiddle_values(std::int64_t n, int sign) {
  GRIDFLOW_REQUIRE(sign == -1 || sign == 1, "twiddle sign must be -1 or +1");
  log2_exact(n);
  const long double pi = 3.141592653589793238462643383279502884L;
  std::vector<T> w(2 * (n / 2));
  for (std::int64_t k = 0; k < n / 2; ++k) {
    const long double angle = sign * 2 * pi * static_cast<long double>(k) / static_cast<long double>(n);
    w[2 * k] = static_cast<T>(std::cos(angle));
    w[2 * k + 1] = static_cast<T>(std::sin(angle));
  }
  return w;
}

template std::vector<float> flow_graph_twiddle_values<float>(std::int64_t, int);
template std::vector<double> flow_graph_twiddle_values<double>(std::int64_t, int);

}  // namespace gridflow::kernels::fft
