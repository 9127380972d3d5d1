#pragma once
// The convolution filters' interface: correlation (scipy.ndimage.correlate semantics) of a field
// over a box, with the boundary mode applied at the edges of the GLOBAL array and neighbour values
// read from the field's ghost cells elsewhere. The host reference and the CUDA variants sit behind
// one call, chosen by the memory space of the fields (core::run_on_space).
//
// On a decomposed field: out on `update` (a part of this rank's owned box) is what scipy gives on
// the same points of the whole global array, provided the halo exchange has filled in's ghost
// cells at least `reach()` deep (read_box(update) must lie in in.ghosted()). Where the mode maps a
// point past a global edge it reads the field's own points near that edge; `wrap` reads the far
// end of the array, so an axis split over ranks needs periodic ghosts: pass a `global` box
// widened by the reach along that axis, and the filter reads those ghosts as array values.
#include <memory>

#include "kernels/filter/boundary_mode.hpp"
#include "kernels/filter/fft_tiling.hpp"
#include "kernels/filter/filter_tunables.hpp"
#include "kernels/filter/filter_weights.hpp"
#include "mesh/box.hpp"
#include "mesh/field.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::filter {

template <class T, int Dim>
class FftCorrelation;

template <class T, int Dim>
class FilterPlan {
 public:
  /// A filter of `weights` on the array spanning `global` (inclusive global indices), extended by
  /// `boundary`. Throws Error when a reach exceeds the array's extent along its axis ("radius
  /// larger than an axis") or the tunables are invalid.
  FilterPlan(FilterWeights<Dim> weights, Boundary boundary, const mesh::Box<Dim>& global,
             FilterTunables tunables = FilterTunables::defaults_for(Dim));
  FilterPlan(FilterPlan&&) noexcept;
  FilterPlan& operator=(FilterPlan&&) noexcept;
  ~FilterPlan();

  /// out(p) = sum_q w[q] ext(p + q - shape/2) for p in `update` (ext: the global array extended
  /// by the mode), separable weights as successive passes along x, y(, z) with the intermediate
  /// values in T, as scipy.ndimage. `in` and `out` are distinct fields in one memory space;
  /// `update` lies in `global` and in out's ghosted box, read_box(update) in in's ghosted box
  /// (Error otherwise, naming the boxes). Other points of `out` keep their values. Host fields:
  /// the reference (the FFT variant with FilterVariant::fft), blocks. Device fields: the variant
  /// of tunables(), asynchronous on `stream` (not nullptr, and for the FFT variant the same at
  /// every call); scratch fields of in's layout and the FFT variant's transforms are made on
  /// first use and kept.
  void apply(const mesh::Field<T, Dim>& in, mesh::Field<T, Dim>& out, const mesh::Box<Dim>& update, StreamHandle stream);

  /// The box of the input this filter reads for `update` (mode mapping at the global edges
  /// included) with the current tunables: the FFT variant reads the windows of every tile that
  /// meets `update`.
  mesh::Box<Dim> read_box(const mesh::Box<Dim>& update) const;
  /// The largest reach over axes and sides with the current tunables: the ghost width a
  /// decomposed field needs (the FFT variant's: the weights' reach plus its tile less one).
  int reach() const;
  const FilterWeights<Dim>& weights() const { return m_weights; }
  const Boundary& boundary() const { return m_boundary; }
  const mesh::Box<Dim>& global() const { return m_global; }
  const FilterTunables& tunables() const { return m_tunables; }
  /// Throws Error for invalid tunables.
  void set_tunables(const FilterTunables& t);
  /// What the last apply ran: "host", "direct", "warp", "panel", "ring", "streaming", "tiled fused",
  /// "tiled per axis", or "fft fftw", "fft cufft", "fft flow_graph" (the FFT variant on host or
  /// device fields, by the library of its first transform; warp and panel tunables run the ring
  /// defaults where no kernel of theirs is compiled for the weights or it does not fit; ring tunables run the streaming
  /// defaults where no ring kernel is compiled for the weights or it does not fit; streaming
  /// tunables run the tiled defaults where streaming does not apply or fit; a fused tile too
  /// large for shared memory runs per axis, and one still too large runs direct).
  const char* path() const { return m_path; }

 private:
  struct Scratch;  // the scratch fields and device weights, allocated on first use
  void apply_host(const mesh::Field<T, Dim>& in, mesh::Field<T, Dim>& out, const mesh::Box<Dim>& update);
  // A template on core::CudaBuild, so that builds without CUDA never reference the launchers.
  template <class CudaBuild>
  void apply_device(const mesh::Field<T, Dim>& in, mesh::Field<T, Dim>& out, const mesh::Box<Dim>& update, StreamHandle stream,
                    CudaBuild);
  void apply_fft(const mesh::Field<T, Dim>& in, mesh::Field<T, Dim>& out, const mesh::Box<Dim>& update, StreamHandle stream);
  FftCorrelation<T, Dim>& fft_correlation(int axis, mesh::MemorySpace space);
  /// The FFT variant's weights shape and tiling of the pass along `axis` (separable; x for full weights).
  std::array<int, Dim> fft_shape(int axis) const;
  FftTiling<Dim> fft_tiling(int axis) const;
  /// The outputs the variant computes for `update`: update, or for fft the whole tiles it meets.
  mesh::Box<Dim> outputs_read(const mesh::Box<Dim>& update) const;
  void check_fields(const mesh::Field<T, Dim>& in, const mesh::Field<T, Dim>& out, const mesh::Box<Dim>& update) const;
  mesh::Field<T, Dim>& scratch(const mesh::Field<T, Dim>& like, int which);

  FilterWeights<Dim> m_weights;
  Boundary m_boundary;
  mesh::Box<Dim> m_global;
  FilterTunables m_tunables;
  std::unique_ptr<Scratch> m_scratch;
  const char* m_path = "none";
};

/// One filter application through a plan made for it (scratch allocated and freed in the call).
template <class T, int Dim>
void correlate(const mesh::Field<T, Dim>& in, mesh::Field<T, Dim>& out, const mesh::Box<Dim>& update, const mesh::Box<Dim>& global,
               const FilterWeights<Dim>& weights, const Boundary& boundary, const FilterTunables& tunables, StreamHandle stream);

}  // namespace gridflow::kernels::filter
