#pragma once
// DistributedFft<T, Dim>: the multi-dimensional discrete Fourier transform of a field decomposed
// over the ranks of a mesh::Decomposition, over ALL the grid's points (boundary points included),
// forward and inverse, complex (c2c) or real (r2c forward, c2r inverse), 2D or 3D.
//
//   forward  X(k) = sum over points p of x(p) exp(-2 pi i k.p / N)  (per axis, FFTW's and numpy's
//            sign), inverse the same with +; both unnormalised: inverse(forward(x)) = N_total x,
//            N_total the number of grid points.
//
// The values travel through the stages of fft_stages.hpp (slab in 2D and 3D, pencil in 3D): one
// halo::BoxRedistribution (MPI or NCCL) per change of boxes, and every 1D transform through a
// kernels::fft::FftPlan with the caller's tunables (AxisFft).
//
// Where the spectrum lives after forward(): rank r holds spectrum_box() = the last stage's box of
// rank r (see fft_stages.hpp: slab 2D split along x, slab 3D along y, pencil 3D along x and y),
// as global spectral indices. Index i along an axis of n points is the frequency i for
// i <= (n - 1) / 2 and i - n above (numpy.fft.fftfreq(n) * n order; frequency(i, n) below). For
// real values only x indices 0..n_x/2 are held: the others are the complex conjugates,
// X(-k) = conj X(k). The values are complex, stored x-interleaved (complex_layout.hpp) in
// spectrum(), a field over interleaved(spectrum_box()) with no ghosts.
#include <memory>
#include <optional>
#include <vector>

#include "halo/box_redistribution.hpp"
#include "halo/transport.hpp"
#include "kernels/fft/fft_plan.hpp"
#include "mesh/decomposition.hpp"
#include "mesh/field.hpp"
#include "transform/axis_fft.hpp"
#include "transform/complex_layout.hpp"
#include "transform/fft_stages.hpp"

namespace gridflow::transform {

/// The signed frequency of spectral index i (0..n-1) along an axis of n points.
inline mesh::Index frequency(mesh::Index i, mesh::Index n) { return i <= (n - 1) / 2 ? i : i - n; }

struct DistributedFftOptions {
  FftDecomposition decomposition = FftDecomposition::slab;
  /// The 1D transforms' backend; unset: kernels::fft::default_fft_tunables(space).
  std::optional<kernels::fft::FftTunables> tunables;
  halo::Transport transport = halo::Transport::mpi;
  /// Host only: every line transformed alone through a contiguous buffer (AxisFft), so the
  /// spectrum is the same bits whatever the rank count and decomposition. Slower.
  bool line_by_line = false;
};

template <class T, int Dim>
class DistributedFft {
 public:
  /// Collective with Transport::nccl (it creates the NCCL communicator), otherwise not. Plans
  /// every transform and transpose once; device work goes on `stream`. Throws Error for a pencil
  /// decomposition in 2D, line_by_line on device memory, or a backend that cannot plan a length.
  DistributedFft(const mesh::Decomposition<Dim>& decomposition, FftValues values, mesh::MemorySpace space,
                 StreamHandle stream, DistributedFftOptions options = {});
  ~DistributedFft();

  /// Collective. The spectrum = the forward transform of `input`'s values on this rank's owned
  /// points: real values on decomposition.owned(), complex ones x-interleaved on
  /// interleaved(owned()). `input` is in the transform's memory space and not modified.
  void forward(const mesh::Field<T, Dim>& input);
  /// Collective. output's owned points (interleaved for complex values) = the inverse transform of
  /// the spectrum, which it overwrites. output's other points are not touched.
  void inverse(mesh::Field<T, Dim>& output);

  /// Every spectral point (x: 0..n_x/2 for real values).
  const mesh::Box<Dim>& spectrum_points() const { return m_stages.spectrum; }
  /// This rank's spectral points (may be empty).
  const mesh::Box<Dim>& spectrum_box() const { return m_stages.stages.back().boxes[m_rank]; }
  /// The axis along which the spectrum is split over the ranks in a slab decomposition (x in 2D,
  /// y in 3D): every plane of one index along it lies whole on one rank.
  int spectrum_split_axis() const { return Dim == 2 ? 0 : 1; }
  /// The spectrum, x-interleaved over interleaved(spectrum_box()); null when that box is empty.
  mesh::Field<T, Dim>* spectrum() { return m_fields.back(); }
  const mesh::Field<T, Dim>* spectrum() const { return m_fields.back(); }

 private:
  FftValues m_values;
  int m_rank = 0;
  FftStages<Dim> m_stages;
  std::vector<std::unique_ptr<mesh::Field<T, Dim>>> m_owned_fields;
  std::unique_ptr<mesh::Field<T, Dim>> m_real;       // real values: stage 0's boxes before the r2c
  std::vector<mesh::Field<T, Dim>*> m_fields;        // per stage; consecutive stages on the same boxes share one
  std::vector<std::unique_ptr<AxisFft<T>>> m_forward, m_inverse;  // per stage; null where the rank holds nothing
  std::shared_ptr<const halo::NcclComm> m_nccl;
  std::unique_ptr<halo::BoxRedistribution<T, Dim>> m_in, m_out;  // owned <-> stage 0 (or real_boxes)
  std::vector<std::unique_ptr<halo::BoxRedistribution<T, Dim>>> m_to_next, m_to_previous;  // stage s <-> s + 1
};

extern template class DistributedFft<float, 2>;
extern template class DistributedFft<double, 2>;
extern template class DistributedFft<float, 3>;
extern template class DistributedFft<double, 3>;

}  // namespace gridflow::transform
