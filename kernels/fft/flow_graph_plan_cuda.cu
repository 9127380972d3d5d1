// The flow_graph backend's FftPlan on the device: the complex transform as one on-chip launch or
// the two or three of a multi-pass split (FlowGraphPasses), with the radix2_table kernel or the onchip kernel, both
// addressing the caller's stride and distances directly. r2c / c2r of even n go through the
// complex transform of n/2 (flow_graph_real_cuda.hpp); a real layout that cannot be viewed as
// complex (stride > 1, odd distance, misaligned) is copied to or from contiguous scratch. Scratch
// is allocated at planning; execute() allocates nothing.
#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "kernels/fft/fft_plan.hpp"
#include "kernels/fft/flow_graph.hpp"
#include "kernels/fft/flow_graph_cuda.hpp"
#include "kernels/fft/flow_graph_passes.hpp"
#include "kernels/fft/flow_graph_radix2_cuda.hpp"
#include "kernels/fft/flow_graph_real_cuda.hpp"
#include "kernels/fft/flow_graph_tunables.hpp"
#include "mesh/check.hpp"
#include "mesh/device.hpp"

namespace gridflow::kernels::fft {

namespace {

constexpr std::int64_t longest_transform = std::int64_t(1) << 24;

template <class T>
class FlowGraphDevicePlan final : public FftPlan<T> {
 public:
  FlowGraphDevicePlan(const FftLayout& layout, StreamHandle stream, const FftTunables& tunables)
      : FftPlan<T>(layout, tunables), m_stream(stream) {
    const std::int64_t n = layout.n;
    GRIDFLOW_REQUIRE(n >= 1 && (n & (n - 1)) == 0 && n <= longest_transform,
                     "flow_graph FFT length " + std::to_string(n) + " is not a power of two in 1..2^24");
    GRIDFLOW_REQUIRE(stream != nullptr, "flow_graph FFT plan without a stream");
    m_variant = tunables.variant.empty() ? FlowGraphTunables{} : FlowGraphTunables::parse(tunables.variant);
    const bool real = layout.kind != FftKind::c2c;
    m_length = real ? n / 2 : n;
    if (real && n == 1) return;  // a copy kernel, no complex transform
    const std::int64_t batch = layout.batch;

    const std::int64_t pass_limit = uses_radix2_kernel() ? radix2_table_max_length : max_onchip_length<T>();
    m_passes = FlowGraphPasses::for_length(m_length, pass_limit, m_variant.passes);
    if (m_passes.multi_pass()) m_scratch = device_buffer(batch * m_length * sizeof(Complex<T>));
    // The default variant: radix 16 for the passes of a long transform (on an H100 it ran
    // 16 x 2^20 float faster than radix 8 at every lines per block, bench/results/fft_bench_h100.json),
    // the contiguous-lines kernel's default for one launch (launches of other layouts run the
    // general kernel at the same radix), and never above the shortest pass. An explicit variant
    // runs as named (the tuner's candidates are pruned to fit).
    if (tunables.variant.empty()) {
      if (m_passes.multi_pass()) m_variant.radix = 16;
      else m_variant = FlowGraphTunables::one_pass_default(m_length, sizeof(T) == 8);
      m_variant.radix = static_cast<int>(std::min<std::int64_t>(m_variant.radix, m_passes.shortest()));
    }
    if (uses_radix2_kernel()) {
      for (std::int64_t len : m_passes.factors)
        if (!m_tables.count(len)) m_tables.emplace(len, std::make_unique<Radix2DeviceTables<T>>(len));
    }
    if (real) {
      m_real_work = device_buffer(batch * m_length * sizeof(Complex<T>));
      const auto w = flow_graph_twiddle_values<T>(n, -1);
      m_real_twiddles = device_buffer(w.size() * sizeof(T));
      mesh::copy_bytes(m_real_twiddles.data(), mesh::MemorySpace::device, w.data(), mesh::MemorySpace::host,
                       w.size() * sizeof(T));
    }
  }

  void execute(const void* in, void* out) override {
    const FftLayout& l = this->layout();
    GRIDFLOW_REQUIRE(in != nullptr && out != nullptr, "flow_graph FFT executed on a null buffer");
    if (l.kind == FftKind::c2c) {
      complex_transform(static_cast<const Complex<T>*>(in), {l.stride, l.resolved_in_distance()},
                        static_cast<Complex<T>*>(out), {l.stride, l.resolved_out_distance()},
                        l.direction == FftDirection::forward ? -1 : 1);
    } else if (l.n == 1) {
      launch_real_length_one<T>(in, {1, l.batch, l.stride, l.resolved_in_distance()}, out,
                                {1, l.batch, l.stride, l.resolved_out_distance()}, l.kind == FftKind::r2c, m_stream);
    } else if (l.kind == FftKind::r2c) {
      real_to_complex(static_cast<const T*>(in), static_cast<Complex<T>*>(out));
    } else {
      complex_to_real(static_cast<const Complex<T>*>(in), static_cast<T*>(out));
    }
  }

 private:
  bool uses_radix2_kernel() const {
    // A line of one element has no onchip launch (its lengths start at 2): the table kernel copies it.
    return m_variant.kernel == FlowGraphTunables::Kernel::radix2_table || m_length == 1;
  }

  static mesh::Buffer device_buffer(std::int64_t bytes) {
    return mesh::Buffer(static_cast<std::size_t>(bytes), mesh::MemorySpace::device);
  }

  Complex<T>* real_work() const { return static_cast<Complex<T>*>(m_real_work.data()); }
  const Complex<T>* real_twiddles() const { return static_cast<const Complex<T>*>(m_real_twiddles.data()); }

  void run_pass(const Complex<T>* in, Complex<T>* out, const OnChipShape& shape) {
    if (uses_radix2_kernel()) launch_radix2_table_fft<T>(in, out, shape, *m_tables.at(shape.n), m_stream);
    else launch_onchip_fft<T>(in, out, shape, m_variant, m_stream);
  }

  /// The complex transform of length m_length over the plan's batch, from lines `a` of `in` to
  /// lines `b` of `out` (in == out allowed with a == b).
  void complex_transform(const Complex<T>* in, ComplexLines a, Complex<T>* out, ComplexLines b, int sign) {
    m_passes.run(this->layout().batch, in, a, out, b, static_cast<Complex<T>*>(m_scratch.data()), sign,
                 [this](const Complex<T>* i, Complex<T>* o, const OnChipShape& s) { run_pass(i, o, s); });
  }

  /// Whether a real operand's lines can be read as the complex lines z_j = x_2j + i x_2j+1.
  static bool viewable_as_complex(const void* p, std::int64_t stride, std::int64_t distance) {
    return stride == 1 && distance % 2 == 0 && reinterpret_cast<std::uintptr_t>(p) % sizeof(Complex<T>) == 0;
  }

  void real_to_complex(const T* x, Complex<T>* spectrum) {
    const FftLayout& l = this->layout();
    const std::int64_t m = m_length, in_distance = l.resolved_in_distance();
    const Complex<T>* z = real_work();
    ComplexLines z_lines{1, m};
    if (viewable_as_complex(x, l.stride, in_distance)) {
      z = reinterpret_cast<const Complex<T>*>(x);
      z_lines = {1, in_distance / 2};
    } else {
      launch_copy_real_lines<T>(x, {l.n, l.batch, l.stride, in_distance}, reinterpret_cast<T*>(real_work()),
                                {l.n, l.batch, 1, l.n}, m_stream);
    }
    complex_transform(z, z_lines, real_work(), {1, m}, -1);
    launch_r2c_split<T>(real_work(), m, l.batch, real_twiddles(), spectrum,
                        {m + 1, l.batch, l.stride, l.resolved_out_distance()}, m_stream);
  }

  void complex_to_real(const Complex<T>* spectrum, T* x) {
    const FftLayout& l = this->layout();
    const std::int64_t m = m_length, out_distance = l.resolved_out_distance();
    launch_c2r_merge<T>(spectrum, {m + 1, l.batch, l.stride, l.resolved_in_distance()}, real_twiddles(), real_work(),
                        m, l.batch, m_stream);
    if (viewable_as_complex(x, l.stride, out_distance)) {
      complex_transform(real_work(), {1, m}, reinterpret_cast<Complex<T>*>(x), {1, out_distance / 2}, +1);
    } else {
      complex_transform(real_work(), {1, m}, real_work(), {1, m}, +1);
      launch_copy_real_lines<T>(reinterpret_cast<const T*>(real_work()), {l.n, l.batch, 1, l.n}, x,
                                {l.n, l.batch, l.stride, out_distance}, m_stream);
    }
  }

  StreamHandle m_stream;
  FlowGraphTunables m_variant;
  std::int64_t m_length = 0;     // complex transform length: n (c2c) or n/2 (r2c, c2r)
  FlowGraphPasses m_passes;
  std::map<std::int64_t, std::unique_ptr<Radix2DeviceTables<T>>> m_tables;  // radix2_table: per pass length
  mesh::Buffer m_scratch;            // batch x m_length, multi-pass only
  mesh::Buffer m_real_work;          // batch x m_length, r2c / c2r only
  mesh::Buffer m_real_twiddles;      // W_n^k, k < n/2, r2c / c2r only
};

}  // namespace

template <class T>
std::unique_ptr<FftPlan<T>> make_flow_graph_plan(const FftLayout& layout, StreamHandle stream,
                                                 const FftTunables& tunables) {
  return std::make_unique<FlowGraphDevicePlan<T>>(layout, stream, tunables);
}

template std::unique_ptr<FftPlan<float>> make_flow_graph_plan<float>(const FftLayout&, StreamHandle,
                                                                     const FftTunables&);
template std::unique_ptr<FftPlan<double>> make_flow_graph_plan<double>(const FftLayout&, StreamHandle,
                                                                       const FftTunables&);

}  // namespace gridflow::kernels::fft
