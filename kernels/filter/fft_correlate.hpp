#pragma once
// FftCorrelation<T, Dim>: correlation through FFTs, the FFT variant of the convolution filters
// (FilterPlan with FilterVariant::fft; a separable filter makes one per pass, full weights one).
//
// The global array is cut into tiles (fft_tiling.hpp); each tile's window (the tile grown by the
// reach, its values those of the extended array: the boundary mode applied at the global edges) is
// transformed (r2c along the first transformed axis, c2c along the others), multiplied by the
// transfer function of the weights, conj(DFT(w)) / (product of the lengths), computed once in
// double, and transformed back; the tile's outputs are the first `tile` points of the result
// (out[i] = sum_j w[j] window[i + j]: no wrap-around, the window is no longer than the transform).
// Transforms go through kernels::fft::FftPlan: FFTW on the host, cuFFT or gridflow's flow-graph
// kernels (where they take the layout) on the device.
//
// Blocks (one tile at one index of the other axes) go through the transforms in groups of a size
// that depends on the tiling and the memory space only (at most about 2^18 values on the host,
// 2^24 on the device, and no more than the blocks of the whole array), the last group padded
// with empty blocks: every execution has the same layout on every rank, so every window is
// transformed by the same plan and the result does not depend on the decomposition.
//
// Cost per output: two transforms of log2(L) work per point, about L / tile of them, against one
// multiply-add per weight for the direct sums: the FFT variant wins for long weights, above all
// full ones (17 x 17 is 289 multiply-adds a point). Values equal the direct ones to rounding.
#include <array>
#include <map>
#include <memory>
#include <vector>

#include "kernels/fft/fft_plan.hpp"
#include "kernels/filter/boundary_mode.hpp"
#include "kernels/filter/fft_tiling.hpp"
#include "kernels/filter/filter_weights.hpp"
#include "mesh/box.hpp"
#include "mesh/device.hpp"
#include "mesh/field_view.hpp"

namespace gridflow::kernels::filter {

template <class T, int Dim>
class FftCorrelation {
 public:
  /// Weights `w` over `shape` (x fastest) on the array spanning `global`, extended by `boundary`,
  /// for fields in `space`. `requested_tile` as make_fft_tiling; `flow_graph`: on the device,
  /// gridflow's flow-graph FFT where it takes a transform's layout, cuFFT elsewhere. Nothing is
  /// allocated before the first apply.
  FftCorrelation(std::vector<double> w, const std::array<int, Dim>& shape, const mesh::Box<Dim>& global, const Boundary& boundary,
                 long long requested_tile, bool flow_graph, mesh::MemorySpace space);
  ~FftCorrelation();
  FftCorrelation(const FftCorrelation&) = delete;
  FftCorrelation& operator=(const FftCorrelation&) = delete;

  const FftTiling<Dim>& tiling() const { return m_tiling; }
  mesh::MemorySpace space() const { return m_space; }

  /// out(p) = sum_q w[q] ext(p + q - shape/2) for p in `box` (inside the global array); `in` holds
  /// every point read_box(tile_cover(box)) reads. Host: blocks. Device: asynchronous on `stream`,
  /// the same stream at every call (the plans are made on the first's).
  void apply(const mesh::FieldView<const T, Dim>& in, const mesh::FieldView<T, Dim>& out, const mesh::Box<Dim>& box, StreamHandle stream);

  /// "fftw", "cufft" or "flow_graph": the library of the last apply's first transform.
  const char* library() const { return m_library; }

 private:
  struct Plans;  // one group's transforms and buffers
  Plans& plans(StreamHandle stream);

  std::vector<double> m_weights;
  std::array<int, Dim> m_shape;
  Boundary m_boundary;
  mesh::Box<Dim> m_global;
  FftTiling<Dim> m_tiling;
  bool m_flow_graph;
  mesh::MemorySpace m_space;
  long long m_group = 0;  // blocks per group
  std::unique_ptr<Plans> m_plans;
  mesh::Buffer m_transfer;  // the transfer function, one block's spectrum, in m_space
  const char* m_library = "none";
  StreamHandle m_stream = nullptr;
};

/// The largest |fft - direct| the FFT variant may differ from the direct sums by, on values of at
/// most `max_abs` in magnitude, with transforms of at most `longest_transform` points: 8 eps(T)
/// log2(L) per transform pair, times the largest sum of |w| a value passes through (the product
/// of the axes' sums for separable weights), for each of the filter's passes. Rounding in an FFT
/// grows like eps log2(L) times the norm of what it transforms; the tests and the tuner's check
/// hold the variant to this.
template <class T, int Dim>
double fft_error_bound(const FilterWeights<Dim>& weights, long long longest_transform, double max_abs);

/// conj(DFT(w zero-padded to the tiling's lengths)) / (product of the lengths) over one block's
/// spectrum, [L_a2][L_a1][L_a0/2 + 1], in double: the transfer function of correlation with `w`
/// (shape per axis, x fastest). Exposed for tests.
template <int Dim>
std::vector<std::array<double, 2>> fft_transfer_function(const std::vector<double>& w, const std::array<int, Dim>& shape,
                                                         const FftTiling<Dim>& tiling);

}  // namespace gridflow::kernels::filter
