// The host_flow_graph backend: the seed's loop over the flow-graph tables (flow_graph.hpp), one
// line at a time through a work array. Real transforms go through the complex transform of the
// full length (imaginary parts zero for r2c, the Hermitian completion for c2r): slower than the
// half-length trick, but exact in structure, which is what a test oracle wants.
#include <vector>

#include "kernels/fft/fft_plan.hpp"
#include "kernels/fft/flow_graph.hpp"
#include "kernels/fft/flow_graph_point.hpp"
#include "mesh/check.hpp"

namespace gridflow::kernels::fft {

namespace {

template <class T>
void run_flow_graph(const FlowGraph& g, const std::vector<T>& twiddle_values, Complex<T>* work) {
  const auto* w = reinterpret_cast<const Complex<T>*>(twiddle_values.data());
  for (int s = 0; s < g.stages; ++s) {
    const std::int32_t* pairs = g.stage_pairs(s);
    const std::int32_t* twiddles = g.stage_twiddles(s);
    for (std::int64_t t = 0; t < g.n / 2; ++t)
      flow_graph_butterfly(work[pairs[2 * t]], work[pairs[2 * t + 1]], w[twiddles[t]]);
  }
}

template <class T>
class HostFlowGraphPlan final : public FftPlan<T> {
 public:
  HostFlowGraphPlan(const FftLayout& layout, const FftTunables& tunables)
      : FftPlan<T>(layout, tunables),
        m_graph(make_flow_graph(layout.n)),
        m_twiddles(flow_graph_twiddle_values<T>(layout.n, sign(layout))),
        m_work(layout.n) {}

  void execute(const void* in, void* out) override {
    const FftLayout& l = this->layout();
    GRIDFLOW_REQUIRE(in != nullptr && out != nullptr, "host_flow_graph FFT executed on a null buffer");
    for (std::int64_t b = 0; b < l.batch; ++b) {
      const std::int64_t in_line = b * l.resolved_in_distance(), out_line = b * l.resolved_out_distance();
      switch (l.kind) {
        case FftKind::c2c: {
          const auto* x = static_cast<const Complex<T>*>(in) + in_line;
          load([&](std::int64_t j) { return x[j * l.stride]; });
          break;
        }
        case FftKind::r2c: {
          const auto* x = static_cast<const T*>(in) + in_line;
          load([&](std::int64_t j) { return Complex<T>{x[j * l.stride], T(0)}; });
          break;
        }
        case FftKind::c2r: {
          const auto* x = static_cast<const Complex<T>*>(in) + in_line;
          load([&](std::int64_t j) { return hermitian_element(x, j); });
          break;
        }
      }
      run_flow_graph(m_graph, m_twiddles, m_work.data());
      if (l.kind == FftKind::c2r) {
        auto* y = static_cast<T*>(out) + out_line;
        for (std::int64_t k = 0; k < l.n; ++k) y[k * l.stride] = m_work[k].re;
      } else {
        auto* y = static_cast<Complex<T>*>(out) + out_line;
        for (std::int64_t k = 0; k < l.out_line_elements(); ++k) y[k * l.stride] = m_work[k];
      }
    }
  }

 private:
  static int sign(const FftLayout& l) {
    const bool inverse = l.kind == FftKind::c2r || (l.kind == FftKind::c2c && l.direction == FftDirection::inverse);
    return inverse ? 1 : -1;
  }

  /// The work array in bit-reversed order: position p gets input element input_order[p]. Reading
  /// the whole line before any write also makes in-place execution safe.
  template <class Element>
  void load(Element element) {
    for (std::int64_t p = 0; p < m_graph.n; ++p) m_work[p] = element(m_graph.input_order[p]);
  }

  /// Element j of the full spectrum whose first n/2 + 1 values are x (stride applied): X_{n-j} =
  /// conj(X_j), and bins 0 and n/2 real (their imaginary parts ignored, as FFTW and cuFFT do).
  Complex<T> hermitian_element(const Complex<T>* x, std::int64_t j) const {
    const FftLayout& l = this->layout();
    if (j == 0 || 2 * j == l.n) return {x[j * l.stride].re, T(0)};
    if (2 * j < l.n) return x[j * l.stride];
    const Complex<T> mirror = x[(l.n - j) * l.stride];
    return {mirror.re, -mirror.im};
  }

  FlowGraph m_graph;
  std::vector<T> m_twiddles;
  std::vector<Complex<T>> m_work;
};

}  // namespace

template <class T>
std::unique_ptr<FftPlan<T>> make_host_flow_graph_plan(const FftLayout& layout, const FftTunables& tunables) {
  return std::make_unique<HostFlowGraphPlan<T>>(layout, tunables);
}

template std::unique_ptr<FftPlan<float>> make_host_flow_graph_plan<float>(const FftLayout&, const FftTunables&);
template std::unique_ptr<FftPlan<double>> make_host_flow_graph_plan<double>(const FftLayout&, const FftTunables&);

}  // namespace gridflow::kernels::fft
