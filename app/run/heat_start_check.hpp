#pragma once
// The heat run's starting field checked before anything is written: a formula that is NaN or
// infinite somewhere (1/0, log(0), sqrt(-1), a value beyond the precision's range) is bad input,
// named by its key, not a run that writes a step-0 file of NaN and aborts at step 1.
#include "kernels/core/non_finite_flag.hpp"
#include "mesh/decomposition.hpp"
#include "solver/heat2d_config.hpp"

namespace gridflow::app {

/// Collective. `flag`: the solver's non-finite flag once its initial and boundary values are set
/// (they record into it as they are evaluated), so a finite start costs one 8-byte reduction;
/// otherwise throws InputError naming the first key (heat.initial, then heat.boundary.left,
/// right, bottom, top) with a point where its value is not finite in T.
template <class T>
void require_finite_start(const solver::HeatConfig& config, const mesh::Decomposition<2>& d,
                          const kernels::core::NonFiniteFlag& flag, StreamHandle stream);

}  // namespace gridflow::app
