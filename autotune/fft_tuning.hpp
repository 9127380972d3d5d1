#pragma once
// Choosing the FFT backend (and flow_graph variant) for one FFT problem by measuring: per length,
// batch, line arrangement, precision, kind, direction and memory space, every candidate
// FftTunables is planned, checked against FFTW and timed, and the fastest is kept in the tuning
// cache like the stencil kernels' launch shapes (collective_tuning.hpp does the cache, the
// strategy, the slowest-rank timing and the agreement between ranks).
//
//   host    fftw (the default), host_flow_graph
//   device  cufft (the default), flow_graph with each FlowGraphTunables::candidates(n, double)
//
// Candidates a layout is not supported by are left out; candidates that fail to plan or to match
// FFTW are skipped, with the reason in the report's rejections.
#include <mpi.h>

#include <string>
#include <vector>

#include "autotune/cache_key.hpp"
#include "autotune/collective_tuning.hpp"
#include "autotune/search_space.hpp"
#include "autotune/tuning_options.hpp"
#include "kernels/fft/fft_plan.hpp"

namespace gridflow::autotune {

/// The candidates for `layout` in `space`, the space's default first.
std::vector<kernels::fft::FftTunables> fft_candidates(const kernels::fft::FftLayout& layout, mesh::MemorySpace space,
                                                      bool double_precision);

/// "fftw", "cufft", "flow_graph:onchip/r8/l4/tw1": the backend, and the variant after a colon.
std::string fft_candidate_label(const kernels::fft::FftTunables& tunables);

/// One choice parameter, fft_parameter, over the candidates' labels; the first is the default.
inline constexpr const char* fft_parameter = "fft";
SearchSpace fft_space(const std::vector<kernels::fft::FftTunables>& candidates);

/// device_key(space) | "fft::<kind>" ("fft::c2c_forward", "fft::c2c_inverse", "fft::r2c",
/// "fft::c2r", with "::strided" appended when stride > 1 or lines are padded) | precision |
/// "<n>x<batch>".
CacheKey fft_cache_key(const kernels::fft::FftLayout& layout, mesh::MemorySpace space, bool double_precision);

struct FftTuning {
  kernels::fft::FftTunables chosen;  ///< the same on every rank of the communicator
  TuningOutcome outcome;             ///< the report (measured or cached) or why there is none
};

/// Collective over `comm` (MPI_COMM_SELF for one process; MPI must be initialised): every rank
/// passes the same layout and options. Returns the cached choice when there is one (unless
/// `remeasure`), else measures every candidate exhaustively, stores the winner and returns it;
/// options.mode off or cached-without-entry give default_fft_tunables(space). Device candidates
/// run on `stream`. Blocks for the whole tuning.
template <class T>
FftTuning choose_fft_tunables(const kernels::fft::FftLayout& layout, mesh::MemorySpace space, StreamHandle stream,
                              const TuningOptions& options, MPI_Comm comm, bool remeasure = false);

}  // namespace gridflow::autotune
