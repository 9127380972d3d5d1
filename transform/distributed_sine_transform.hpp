#pragma once
// DistributedSineTransform<T>: the 3D type-I discrete sine transform of the grid's interior points,
// distributed over the ranks of a Decomposition in slabs (the spectral Poisson solver's transform).
//
// Values enter and leave on each rank's owned interior points (owned box and grid interior, for
// any Decomposition). In between they live in z-slabs (all x and y of a range of z: the x and y
// transforms are local there) and y-slabs (all x and z of a range of y: the z transform), where
// the coefficients are left:
//   forward:  owned -> z-slabs, DST x, DST y, -> y-slabs, DST z
//   inverse:  DST z, y-slabs -> z-slabs, DST y, DST x, -> owned
// each arrow one halo::BoxRedistribution (MPI_Alltoallv, or NCCL sends and receives between
// GPUs). The coefficient at global index (i, j, k) is that of sine mode (i, j, k). Unnormalised: inverse(forward(x)) = (Nx/2)(Ny/2)(Nz/2) x, N the
// interval counts. Slabs split as the Decomposition splits points (the first take the remainder);
// with more ranks than interior planes, the extra ranks hold no slab and only pass values on.
#include <functional>
#include <memory>
#include <optional>

#include "kernels/fft/dst1.hpp"
#include "mesh/decomposition.hpp"
#include "mesh/field.hpp"
#include "halo/box_redistribution.hpp"

namespace gridflow::transform {

template <class T>
class DistributedSineTransform {
 public:
  /// Collective with Transport::nccl (it creates the NCCL communicator), otherwise not. Plans
  /// every transform and message once; device work goes on `stream`. `fft` picks the backend of
  /// the DSTs' FFTs (Dst1Plan); none takes kernels::fft::default_fft_tunables(space).
  DistributedSineTransform(const mesh::Decomposition<3>& decomposition, mesh::MemorySpace space, StreamHandle stream,
                           halo::Transport transport = halo::Transport::mpi,
                           std::optional<kernels::fft::FftTunables> fft = std::nullopt);

  /// Collective. The coefficients = the transform of `values` on the owned interior points (a
  /// field containing owned_interior(); may be null when that box is empty).
  void forward(const mesh::Field<T, 3>* values);
  /// Collective. out's owned interior points = the inverse transform of the coefficients, which
  /// it overwrites. out's other points are not touched. Device: queued on the stream on return.
  void inverse(mesh::Field<T, 3>& out);

  /// Whether this rank holds the whole interior (one rank): then every stage is the owned box,
  /// and the transforms can run in place on the caller's field, with no slab copies.
  bool local() const { return m_local; }
  /// local() only. The transforms of a one-rank spectral solve, in place on the owned interior
  /// points of `field`: the forward transform, the coefficients (mode (i, j, k) at point (i, j,
  /// k)) divided as kernels::fft::divide_by_eigenvalues(field, owned_interior(), tables, scale)
  /// does, and the inverse transform; the field's other points are not touched. Where the z plan
  /// is fused, the division runs between the z transforms in one pass over memory (the same
  /// bits). `stage` (if given) is called before the forward x and y transforms (0), the z
  /// transforms and the division (1) and the inverse y and x transforms (2): a caller's timers.
  void solve_in_place(mesh::Field<T, 3>& field, const kernels::fft::EigenTables<T>& tables, T scale,
                      const std::function<void(int)>& stage = {});

  /// This rank's owned interior points.
  const mesh::Box<3>& owned_interior() const { return m_owned_interior; }
  /// This rank's y-slab, where the coefficients live (may be empty).
  const mesh::Box<3>& coefficient_box() const { return m_y_slab_box; }
  /// The coefficients on coefficient_box() after forward(); null when it is empty (or, on one
  /// rank, before the first forward()).
  mesh::Field<T, 3>* coefficients() { return m_y_slab.get(); }
  /// The NCCL communicator the transposes use (null over MPI), connected to every rank they
  /// talk to: share it rather than pay for another one (creating one takes about a second).
  std::shared_ptr<const halo::NcclComm> nccl_comm() const { return m_nccl; }

 private:
  /// Makes the slab fields and the transposes, once (on one rank, at the first forward/inverse).
  void make_slab_path();

  mesh::Box<3> m_owned_interior, m_z_slab_box, m_y_slab_box;
  std::function<void()> m_slab_path;  // what make_slab_path() runs, until it has
  bool m_local = false;
  std::unique_ptr<mesh::Field<T, 3>> m_z_slab, m_y_slab;
  std::unique_ptr<kernels::fft::Dst1Plan<T>> m_dst_x, m_dst_y, m_dst_z;
  std::shared_ptr<const halo::NcclComm> m_nccl;
  std::unique_ptr<halo::BoxRedistribution<T>> m_owned_to_z, m_z_to_y, m_y_to_z, m_z_to_owned;
};

extern template class DistributedSineTransform<float>;
extern template class DistributedSineTransform<double>;

}  // namespace gridflow::transform
