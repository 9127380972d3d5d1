#pragma once
// On-line tuning: the measurements are real steps of the run (time steps, Jacobi sweeps). Each
// candidate advances the computation by whole steps exactly as an untuned run would, the tuning
// never takes the computation past the steps it was given, and the winner takes the rest.
//
// Why no candidate is checked against an oracle: the solvers that tune this way compute every
// point with one point function from the same inputs whatever the candidate (launch shape,
// exchange width), and FMA contraction is off in both builds (-ffp-contract=off, --fmad=false),
// so every candidate produces the same bits. Their tests compare tuned and untuned runs bitwise.
#include <mpi.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "autotune/search_space.hpp"
#include "halo/transport.hpp"
#include "mesh/box.hpp"
#include "mesh/memory_space.hpp"
#include "autotune/collective_tuning.hpp"
#include "kernels/core/precision.hpp"

namespace gridflow::autotune {

/// A computation the on-line tuner advances. Every configuration moves the same computation
/// forward, bitwise as the untuned run would. The deep-halo solvers' is solver::DeepHaloSteps.
class SteppedRun {
 public:
  virtual ~SteppedRun() = default;
  /// Steps taken so far.
  virtual std::int64_t step() const = 0;
  /// Applies `c` to the steps that follow; parameters `c` lacks keep the values they had when
  /// the tuning began. May be collective (a first use of an exchange width sets it up).
  virtual void apply(const autotune::Configuration& c) = 0;
  /// Takes `count` steps, fewer only when the computation has ended (a solve that converged);
  /// returns the steps taken. Collective. Device work may still be queued on return.
  virtual std::int64_t advance(std::int64_t count) = 0;
};

struct OnlineTuning {
  TuningRequest request;  ///< what to tune and how; tune_online sets its affordable_runs
  mesh::MemorySpace space = mesh::MemorySpace::host;
  StreamHandle stream = nullptr;          ///< where device work is queued (and timed)
  MPI_Comm comm = MPI_COMM_NULL;          ///< the ranks that tune together; the slowest decides
  std::optional<std::int64_t> max_steps;  ///< steps the tuning may take; nullopt: as many as the search needs
  std::int64_t probe_steps = 1;           ///< length of the first probe run, which then doubles
  std::int64_t run_multiple = 1;          ///< measured runs are whole multiples of this many steps
  /// Where set, a run of candidate c is whole multiples of candidate_multiple(c) steps instead (a
  /// divisor of run_multiple, which then only sizes the search): each candidate's runs last about
  /// target length whatever the deepest candidate, and its cost is its time per step.
  std::function<std::int64_t(const Configuration&)> candidate_multiple;
};

struct OnlineTuningResult {
  std::string kernel;
  TuningOutcome outcome;
  std::int64_t steps_taken = 0;  ///< steps the tuning advanced the computation by

  std::string text() const { return outcome.text(kernel); }
  autotune::ReportAttributes attributes() const { return outcome.attributes(kernel); }
};

/// Takes the cache's choice or measures candidates of `space` on `run`'s next steps, then leaves
/// `run` set to the choice. Measured runs last about a millisecond (judged by probe runs); the
/// search is sized to the runs that fit in setup.max_steps. When the computation ends during the
/// tuning, the outcome is the defaults with a note and nothing is stored. Collective over
/// setup.comm.
OnlineTuningResult tune_online(SteppedRun& run, const autotune::SearchSpace& space, const OnlineTuning& setup);

/// The request to tune `kernel` on this rank's part: keyed by the device of `space`, the
/// precision and the extents of `owned`. `remeasure` (gridflow tune) ignores a cache entry and
/// makes a cache that cannot be written an error.
template <int Dim>
TuningRequest tuning_request(const TuningOptions& options, kernels::core::Precision precision, const std::string& kernel,
                             mesh::MemorySpace space,
                             const mesh::Box<Dim>& owned, bool remeasure);

/// The outcome when the space has no parameter: why there is nothing to tune. `off`: the deck
/// turned tuning off; otherwise `why` says what could have been tuned and when.
TuningOutcome nothing_to_tune(bool off, const std::string& why);

/// What gridflow tune prints on rank 0: the report, and where it was stored when it was.
std::string offline_tuning_text(const OnlineTuningResult& result, const TuningOptions& options);

}  // namespace gridflow::autotune
