#pragma once
// The run-time choices every problem makes the same way: device, GPU binding, halo transport,
// output directory. Each is collective and raises the same InputError on every rank.
#include <mpi.h>

#include <functional>
#include <memory>
#include <string>

#include "halo/transport.hpp"
#include "io/output_lock.hpp"
#include "mesh/decomposition.hpp"
#include "mesh/memory_space.hpp"
#include "solver/memory_need.hpp"
#include "solver/run_options.hpp"

namespace gridflow::app {

/// "cpu" -> host; "gpu" -> device (error without a usable GPU on any rank); "auto" -> device when
/// every rank sees a GPU. Binds each rank to a GPU by node-local rank when the answer is device.
mesh::MemorySpace resolve_device(const solver::RunOptions& options, MPI_Comm comm);

/// Where and how a run executes: memory space (GPUs bound), halo transport, decomposition.
template <int Dim>
struct RunPlacement {
  mesh::MemorySpace space;
  halo::Transport transport;
  mesh::Decomposition<Dim> decomposition;
  /// Rank 0's lock on the output series (prepare_run, output enabled); null elsewhere.
  std::unique_ptr<io::OutputLock> output_lock;
};

/// The collective set-up every problem makes in this order: device (binding GPUs), transport,
/// decomposition (each rank owning at least halo.width points per axis). Same InputError on every
/// rank for an impossible choice.
template <int Dim>
RunPlacement<Dim> place_run(const solver::RunOptions& options, const mesh::Grid<Dim>& grid, MPI_Comm comm);

/// Rank 0 creates the output directory and checks it is writable; error on every rank if not.
void prepare_output_directory(const std::string& directory, MPI_Comm comm);

/// Rank 0 locks "<directory>/<name>.lock" for as long as the returned lock lives (null on the
/// other ranks); InputError on every rank, naming the lock file and its holder, when another run
/// holds it.
std::unique_ptr<io::OutputLock> lock_output_series(const std::string& directory, const std::string& name, MPI_Comm comm);

/// Rank 0 checks that the --summary file `path` can be written (opened to append, so an existing
/// file is kept; one it had to create is removed again); error on every rank, naming the path and
/// the reason, if not. Nothing to do for an empty path.
void prepare_summary_file(const std::string& path, MPI_Comm comm);

/// The memory one rank of the run will allocate where it is placed (the solver's estimate).
template <int Dim>
using MemoryEstimate = std::function<solver::MemoryNeed(const RunPlacement<Dim>&)>;

/// What a run (not a tune) sets up before any work, collectively and in this order: place_run,
/// the memory check of `estimate` (require_memory), then the output directory and its series lock
/// (when output is enabled) and the --summary file (when asked for), so a run that cannot fit, or
/// an unwritable or busy destination, stops the run before it allocates or writes anything.
template <int Dim>
RunPlacement<Dim> prepare_run(const solver::RunOptions& options, const mesh::Grid<Dim>& grid, const std::string& summary_path,
                              MPI_Comm comm, const MemoryEstimate<Dim>& estimate);

/// Reads a text file on rank 0 and broadcasts it; InputError on every rank, naming the path, when
/// it cannot be read, is not a regular file (or a pipe), or is over 1 MiB.
std::string read_text_on_rank0(const std::string& path, const std::string& what, MPI_Comm comm);

}  // namespace gridflow::app
