#pragma once
// The heat run's starting field checked before anything is written: a formula that is NaN or
// infinite somewhere (1/0, log(0), sqrt(-1), a value beyond the precision's range) is bad input,
// named by its key, not a run that writes a step-0 file of NaN and aborts at step 1.
#include "mesh/decomposition.hpp"
#include "mesh/field.hpp"
#include "solver/heat2d_config.hpp"

namespace gridflow::app {

/// Collective. `u`: the solution at t = 0 (initial and boundary values set). Costs one min/max
/// reduction when it is finite; otherwise throws InputError naming the first key (heat.initial,
/// then heat.boundary.left, right, bottom, top) with a point where its value is not finite in T.
template <class T>
void require_finite_start(const solver::HeatConfig& config, const mesh::Decomposition<2>& d, const mesh::Field<T, 2>& u,
                          StreamHandle stream);

}  // namespace gridflow::app
