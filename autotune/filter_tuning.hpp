#pragma once
// Choosing how a convolution filter runs by measuring, like the stencil kernels' launch shapes:
// per device, filter (its weights' lengths, separable or full), boundary mode, method, precision
// and update box, every candidate FilterTunables is checked against the host reference and timed,
// and the fastest is kept in the tuning cache (collective_tuning.hpp: the cache, the slowest-rank
// timing and the agreement between ranks).
//
// The method says which results the user accepts:
//   direct  the reference's own chain of roundings (every CUDA variant computes it; bitwise the
//           same on the host, on any GPU and on any rank count); the tuner chooses among the CUDA
//           variants (ring, streaming, tiled, direct) and their launch shapes. On the host there is
//           one candidate, the reference, and nothing to measure.
//   fft     the FFT variant (kernels/filter/fft_correlate.hpp) with its default tunables (tiles
//           and FFT library): equal to the direct result to rounding, and bitwise the same on any
//           rank count, since its tiles are the global array's and nothing is left to a
//           measurement; nothing to choose.
//   auto    the direct candidates and every FFT candidate (tile sizes; on the device cuFFT or
//           gridflow's flow-graph FFT): the fastest, which for large radii and full weights is an
//           FFT one. Each candidate is bitwise independent of the rank count, but which one wins
//           depends on what the measurement found on this machine for this rank's box, and so
//           may the last bits of the result.
#include <mpi.h>

#include <string>
#include <vector>

#include "autotune/cache_key.hpp"
#include "autotune/collective_tuning.hpp"
#include "autotune/search_space.hpp"
#include "autotune/tuning_options.hpp"
#include "kernels/filter/correlate.hpp"

namespace gridflow::autotune {

enum class FilterMethod { direct, fft, automatic };

/// "direct", "fft", "auto"; parse_filter_method throws Error naming the accepted names.
std::string to_string(FilterMethod method);
FilterMethod parse_filter_method(const std::string& name);

/// The axes a filter over `global` works on: 1 for a 2D array of one row (a signal), else Dim.
template <int Dim>
int filter_dims(const mesh::Box<Dim>& global) {
  return Dim == 2 && global.extent(1) == 1 ? 1 : Dim;
}

/// The candidates of `method` for `weights` over `dims` axes in `space`, the untuned choice first
/// (FilterTunables::defaults_for for direct and auto, the default FFT tunables for fft):
///   direct, device  the ring variant's launch shapes where a ring kernel is compiled for the
///                   weights' lengths, else the streaming and tiled shapes; the other variants'
///                   defaults; for full weights the one direct kernel (its tunables are not read)
///   direct, host    the reference alone
///   fft             the first of kernels::filter::filter_fft_candidates for the space
///   auto            the direct list and every FFT candidate
template <int Dim>
std::vector<kernels::filter::FilterTunables> filter_tuning_candidates(const kernels::filter::FilterWeights<Dim>& weights, int dims,
                                                                      mesh::MemorySpace space, FilterMethod method);

/// "host reference" for the direct family on the host, else the tunables as operator<< prints them.
std::string filter_candidate_label(const kernels::filter::FilterTunables& tunables, mesh::MemorySpace space);

/// One choice parameter, filter_parameter, over the candidates' labels; the first is the default.
inline constexpr const char* filter_parameter = "filter";
SearchSpace filter_space(const std::vector<kernels::filter::FilterTunables>& candidates, mesh::MemorySpace space);

/// device_key(space) | "filter::<method>::<mode>::<separable|full>" + "::" + the weights' lengths
/// per axis ("5x5", x first) | precision | extents of the update box. choose_filter_tunables
/// appends "::" and a digest of the candidates' labels: the cache holds an index into them.
template <int Dim>
CacheKey filter_cache_key(const kernels::filter::FilterWeights<Dim>& weights, kernels::filter::BoundaryMode mode, FilterMethod method,
                          const mesh::Box<Dim>& update, mesh::MemorySpace space, bool double_precision);

struct FilterTuning {
  kernels::filter::FilterTunables chosen;  ///< the same on every rank of the communicator
  TuningOutcome outcome;                   ///< the report (measured or cached) or why there is none
  std::size_t candidates = 0;              ///< how many there were (1: nothing to choose)
};

/// "<chosen label> (measured N of M candidates in S s)", "(from the tuning cache)" or "(<why
/// nothing was measured>)"; empty where there was one candidate, nothing to choose.
std::string describe(const FilterTuning& tuning, mesh::MemorySpace space);

/// Collective over `comm` (MPI_COMM_SELF for one process): every rank passes the same filter
/// (`plan`'s weights, boundary and global box; its tunables are not read), method and options,
/// and its own `update` box (the candidates are timed on a corner of it where it is large: 2^18
/// points on the host, 2^26 on a GPU; cached under its whole extents). Returns the cached choice when there is one
/// (unless `remeasure`), else measures every candidate, stores the winner and returns it; with one
/// candidate, options.mode off or cached without an entry: the first candidate. Device
/// candidates run on `stream`. Blocks for the whole tuning.
template <class T, int Dim>
FilterTuning choose_filter_tunables(const kernels::filter::FilterPlan<T, Dim>& plan, const mesh::Box<Dim>& update, mesh::MemorySpace space,
                                    StreamHandle stream, FilterMethod method, const TuningOptions& options, MPI_Comm comm,
                                    bool remeasure = false);

}  // namespace gridflow::autotune
