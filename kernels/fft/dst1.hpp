#pragma once
// Dst1Plan<T>: the batched type-I discrete sine transform along one axis of a box of a field, in
// place. Two ways:
//  - fused (device, flow_graph backend, N a power of two up to dst1_onchip_max_length): one
//    kernel per axis that reads each line once, transforms it on chip and writes it back
//    (dst1_onchip_cuda.hpp); the default on the device wherever it applies, about 3x faster than
//    the other way on 511^3;
//  - through a real FFT of the same length: the fold and unfold of dst1_point.hpp around an r2c
//    FftPlan of whichever backend the FftTunables name (FFTW on the host, cuFFT on the device for
//    lengths the fused kernel does not take).
//
// Every line along `axis` through the box is transformed,
//   F_k = sum_{j=1}^{N-1} x_j sin(pi j k / N),  N = box.extent(axis) + 1,
// with x_j the line's j-th point (box.lo[axis] + j - 1) and F_k stored at the same place: the box's
// points along the axis are the interior points of a Dirichlet line of N intervals. Unnormalised:
// applying it twice multiplies by N/2.
//
// The FFT plan, the sine table and buffers for `batch()` lines are made once; lines go through
// them a batch at a time, so the extra memory is at most about 2 max_batch_elements values
// whatever the box (and FFTW's int sizes hold).
#include <cstdint>
#include <memory>
#include <optional>

#include "kernels/fft/dst1_lines.hpp"
#include "kernels/fft/dst1_onchip_cuda.hpp"
#include "kernels/fft/fft_plan.hpp"
#include "kernels/fft/flow_graph_tunables.hpp"
#include "mesh/box.hpp"
#include "mesh/device.hpp"
#include "mesh/field.hpp"

namespace gridflow::kernels::fft {

template <class T>
class Dst1Plan {
 public:
  /// Batch bounds when none is given: on the host, buffers that stay in cache (a third faster
  /// along y and z at 128^3 to 256^3 than one batch); on the device, enough lines to fill the GPU.
  static constexpr std::int64_t host_max_batch_elements = std::int64_t(1) << 16;
  static constexpr std::int64_t device_max_batch_elements = std::int64_t(1) << 24;

  /// Plans for `box` (non-empty) in fields of memory `space`; device work is queued on `stream`.
  /// max_batch_elements bounds N batch(); 0 takes the space's default above. `fft` picks the
  /// FFT backend (flow_graph on the device: fused where the length allows, its variant naming the
  /// fused kernel's radix and twiddle source); none takes the fused kernel where it applies, else
  /// default_fft_tunables(space). Throws Error for an empty box, an axis
  /// outside 0..2, device memory without CUDA, or a backend that cannot plan the lines.
  Dst1Plan(const mesh::Box<3>& box, int axis, mesh::MemorySpace space, StreamHandle stream,
           std::int64_t max_batch_elements = 0, std::optional<FftTunables> fft = std::nullopt);
  ~Dst1Plan();
  Dst1Plan(Dst1Plan&&) noexcept;
  Dst1Plan& operator=(Dst1Plan&&) noexcept;

  /// The field's values on the box = their DST-I along the axis. `field` is in the plan's memory
  /// space and its ghosted box contains the box. Host: blocks. Device: asynchronous on the stream.
  void apply(mesh::Field<T, 3>& field);
  /// The field's values on the box = DST-I(divide(DST-I(values))) along the axis, divide being
  /// divide_by_eigenvalues(field, box, tables, scale): the middle of a one-rank spectral solve. A
  /// fused plan does it in one pass over memory, with the same bits; others apply, divide, apply.
  void apply_divide_apply(mesh::Field<T, 3>& field, const EigenTables<T>& tables, T scale);
  /// Readies apply_divide_apply's fused kernel (its first launch would otherwise pay a few ms for
  /// it inside a timed solve); nothing for a plan that is not fused. Blocking.
  void prepare_divide_apply();

  const mesh::Box<3>& box() const { return m_box; }
  int axis() const { return m_axis; }
  /// N: the transform length (points per line + 1).
  std::int64_t length() const { return m_layout.n; }
  /// Lines per FFT execution (all of them when fused).
  std::int64_t batch() const { return m_layout.batch; }
  /// The FFT backend the lines go through.
  const FftTunables& fft_tunables() const { return m_tunables; }
  /// Whether the lines go through the fused on-chip kernel.
  bool fused() const { return m_fused.has_value(); }

 private:
  /// Where the box lies in `field`, after checking its memory space and extent.
  BoxAddressing addressing(const mesh::Field<T, 3>& field) const;

  mesh::Box<3> m_box;
  int m_axis = 0;
  mesh::MemorySpace m_space = mesh::MemorySpace::host;
  StreamHandle m_stream = nullptr;
  std::int64_t m_lines = 0;
  Dst1Lines m_layout;  // n, batch and buffer layout; apply() adds the field's addressing
  mesh::Buffer m_sines, m_real, m_spectrum;
  FftTunables m_tunables;
  std::optional<FlowGraphTunables> m_fused;  // set: the fused kernel, no buffers and no FFT plan
  std::unique_ptr<FftPlan<T>> m_fft;         // r2c, real buffer to spectrum buffer
};

extern template class Dst1Plan<float>;
extern template class Dst1Plan<double>;

}  // namespace gridflow::kernels::fft
