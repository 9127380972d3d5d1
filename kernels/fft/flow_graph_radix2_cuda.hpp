#pragma once
// The seed's GPU kernel (radix2_table variant of the flow_graph backend): one block per line, the
// line copied to shared memory, every stage of the flow graph run there (one butterfly per thread,
// its index pair and twiddle exponent read from the tables of flow_graph.hpp in device memory,
// __syncthreads() between stages), written back. Same line addressing and fused four-step twiddle
// as the onchip kernel (OnChipShape), so the device plan composes either into long transforms.
// No CUDA syntax here; defined in CUDA builds only.
#include <cstdint>

#include "kernels/fft/complex.hpp"
#include "kernels/fft/flow_graph_cuda.hpp"
#include "mesh/device.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::fft {

/// The longest line the radix2_table kernel transforms (float and double: 4096 x 16 bytes of
/// shared memory for double, above the default 48 KB, so the kernel opts in to more).
constexpr std::int64_t radix2_table_max_length = 4096;

/// The flow-graph tables of one length in device memory (pairs, twiddle exponents, input order
/// as int32, and the twiddle values W^k of both signs as Complex<T>), built and uploaded once at
/// planning (blocks until uploaded).
template <class T>
class Radix2DeviceTables {
 public:
  /// n: a power of two, 1..radix2_table_max_length; throws Error otherwise.
  explicit Radix2DeviceTables(std::int64_t n);
  std::int64_t n() const { return m_n; }
  int stages() const { return m_stages; }
  const std::int32_t* pairs() const { return static_cast<const std::int32_t*>(m_pairs.data()); }
  const std::int32_t* twiddle_exponents() const { return static_cast<const std::int32_t*>(m_exponents.data()); }
  const std::int32_t* input_order() const { return static_cast<const std::int32_t*>(m_order.data()); }
  /// W^k, k in [0, n/2), for exponent sign -1 (forward) or +1 (inverse).
  const Complex<T>* twiddle_values(int sign) const {
    return static_cast<const Complex<T>*>(sign < 0 ? m_forward.data() : m_inverse.data());
  }

 private:
  std::int64_t m_n = 0;
  int m_stages = 0;
  mesh::Buffer m_pairs, m_exponents, m_order, m_forward, m_inverse;
};

/// Transforms the lines of `shape` (shape.n == tables.n(), which may be 1: a copy) with the
/// radix2_table kernel, asynchronously on `stream`. in == out is allowed when both layouts are
/// the same (each block reads its whole line before writing it).
template <class T>
void launch_radix2_table_fft(const Complex<T>* in, Complex<T>* out, const OnChipShape& shape,
                             const Radix2DeviceTables<T>& tables, StreamHandle stream);

}  // namespace gridflow::kernels::fft
