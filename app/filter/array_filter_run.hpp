#pragma once
// The convolution filters of `gridflow filter` over a dataset of any size, on every rank of a
// communicator. The dataset's first axis (time with --frames, else the slowest spatial axis) is
// split into one contiguous range per rank, and each range is streamed through a bounded buffer in
// chunks: read the chunk and the rows around it that the filter reaches (the boundary mode applied
// at the global edges, `wrap` reading the far end of the array), filter on the host or the GPU,
// write. Every output point is computed from the same values in the same order whatever the rank
// count, the chunk size or the placement of chunks, so those leave the result bitwise unchanged.
#include <mpi.h>

#include <string>

#include "app/filter/filter_request.hpp"
#include "io/array_dataset.hpp"
#include "mesh/memory_space.hpp"

namespace gridflow::app {

/// Seconds per phase (rank 0's, between collective steps) and what ran.
struct FilterRunReport {
  double read = 0, copy = 0, filter = 0, write = 0, total = 0;
  long long chunks = 0;            ///< collective chunk steps
  long long chunk_rows = 0;        ///< indices of the first axis per chunk and rank
  std::string kernel_path;         ///< FilterPlan::path() of the last chunk
  std::string tuning;              ///< the tuner's choice and how it was made; empty without a choice
};

/// Collective: filters the reader's dataset into the writer's, in `space` (device: the GPU already
/// bound to this rank). Progress lines go to stderr on rank 0 when the work takes long.
FilterRunReport run_array_filter(const FilterRequest& request, const io::ArrayReader& reader, io::ArrayWriter& writer,
                                 mesh::MemorySpace space, MPI_Comm comm);

}  // namespace gridflow::app
