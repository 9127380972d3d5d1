#pragma once

namespace gridflow::io {

/// Call before MPI_Init. Open MPI 4.1's default MPI-IO component (OMPIO with fcoll/vulcan)
/// writes wrong data for collective HDF5 hyperslab writes from 3 or more ranks
/// (open-mpi/ompi#12718; Debian 12 ships 4.1.4, and tests/mpi/output_ranks_test.cpp shows it).
/// Unless the user already chose a component (OMPI_MCA_io set), this selects ROMIO instead.
/// A no-op for other MPI implementations.
void avoid_broken_mpiio();

}  // namespace gridflow::io
