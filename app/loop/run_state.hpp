#pragma once
// RunState<T, Dim>: what observers see of a run at a step boundary. A view, valid during the call
// that receives it.
#include <mpi.h>

#include <cstdint>

#include "app/loop/field_access.hpp"
#include "app/loop/stop_request.hpp"
#include "mesh/decomposition.hpp"

namespace gridflow::app {

template <class T, int Dim>
struct RunState {
  std::int64_t step;       ///< steps taken (time steps, sweeps, cycles, CG iterations)
  std::int64_t start_step; ///< the step the loop started from (later when steps came before it, such as an on-line tuning's)
  std::int64_t last_step;  ///< the step the run ends at by its own rule at the latest
  double time;             ///< model time; 0 for a run without one (Poisson)
  double dt;               ///< model time per step; 0 without
  bool ending;             ///< the run ends at this step: it finished, or a stop was agreed
  const FieldAccess<T, Dim>& fields;
  const mesh::Decomposition<Dim>& decomposition;
  std::int64_t timed_from;  ///< the first step stepping_seconds counts (warm-up and steps taken before the loop excluded)
  double stepping_seconds;  ///< wall seconds the loop spent advancing from timed_from on, observers excluded
  const StopRequest* stop = nullptr;  ///< the agreed early stop, in the last acts of a run that has one

  MPI_Comm comm() const { return decomposition.comm(); }
};

}  // namespace gridflow::app
