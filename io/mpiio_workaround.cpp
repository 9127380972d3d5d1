#include "io/mpiio_workaround.hpp"

#include <mpi.h>

#include <cstdlib>

namespace gridflow::io {

void avoid_broken_mpiio() {
#if defined(OPEN_MPI) && OMPI_MAJOR_VERSION < 5
  setenv("OMPI_MCA_io", "^ompio", /*overwrite=*/0);
#endif
}

}  // namespace gridflow::io
