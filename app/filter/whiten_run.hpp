#pragma once
// `gridflow filter --filter whiten` over a frame stack (T, Y, X) of any length: frames pushed in
// order through one kernels::filter::Whitener, streamed in chunks of frames through a bounded
// buffer (host or GPU), and the shift of every frame against frame 0 written as `shifts` (T, 2).
//
// Rank 0 does the work and the others take part in the collective reads and writes with nothing
// to move. Whitening is sequential in time: each frame's shift against frame 0 is chained through
// its predecessors' shifts back to frame 0, so a rank starting part-way through the stack, even N
// frames early, would not know those shifts and its results would differ.
#include <mpi.h>

#include "app/filter/array_filter_run.hpp"
#include "app/filter/filter_request.hpp"
#include "io/array_dataset.hpp"
#include "mesh/memory_space.hpp"

namespace gridflow::app {

/// Name of the shifts dataset in the output file.
inline constexpr const char* whiten_shifts_name = "shifts";

/// Collective: whitens the reader's stack into the writer's dataset and adds `shifts`.
FilterRunReport run_whiten(const FilterRequest& request, const io::ArrayReader& reader, io::ArrayWriter& writer,
                           mesh::MemorySpace space, MPI_Comm comm);

}  // namespace gridflow::app
