#pragma once
// MemoryNeed: the bytes one rank of a run allocates (host and device), estimated from the arrays
// a solver holds before any of them is allocated, so the application can refuse a run that would
// not fit instead of failing in an allocation (or being killed by the kernel) half-way through.
// Estimates count every field with its ghosts and row padding as mesh::Field lays it out, the
// solver's work arrays, exchange and transform buffers, set-up temporaries and the host copy the
// output writes from; they are meant to be slightly above what the run uses, never far above.
#include <cstdint>

#include "kernels/core/precision.hpp"
#include "mesh/box.hpp"

namespace gridflow::solver {

/// Host bytes of a rank that no array accounts for: the executable and its libraries, MPI and
/// MPI-IO's collective buffers (measured: 31 MiB before any field, 16-22 MiB more in a write).
constexpr double runtime_host_bytes = 64.0 * 1024 * 1024;
/// Device bytes beyond the arrays: cuFFT plans' and NCCL's workspaces.
constexpr double runtime_device_bytes = 256.0 * 1024 * 1024;

struct MemoryNeed {
  double host_bytes = 0;    ///< the peak of one rank in host memory
  double device_bytes = 0;  ///< the peak of one rank on its GPU (0 for a host run)
};

/// Bytes of one field of `precision` over `owned` with `ghost` ghost layers, padding included.
template <int Dim>
double field_bytes(const mesh::Box<Dim>& owned, int ghost, kernels::core::Precision precision);

/// Bytes of the ghost layers of `owned` (width `ghost`): what one field's halo exchange buffers
/// hold, sent and received.
template <int Dim>
double halo_bytes(const mesh::Box<Dim>& owned, int ghost, kernels::core::Precision precision);

extern template double field_bytes<2>(const mesh::Box<2>&, int, kernels::core::Precision);
extern template double field_bytes<3>(const mesh::Box<3>&, int, kernels::core::Precision);
extern template double halo_bytes<2>(const mesh::Box<2>&, int, kernels::core::Precision);
extern template double halo_bytes<3>(const mesh::Box<3>&, int, kernels::core::Precision);

}  // namespace gridflow::solver
