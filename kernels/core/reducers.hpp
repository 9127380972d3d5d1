#pragma once
// Reducers: how the values of a reduction combine, for the host and device reductions
// (reduce_host.hpp, reduce_cuda.cuh). A reducer is a type with
//   Value                        the reduced value (trivially copyable)
//   identity()                   the value of an empty box
//   join(Value& into, from)      into = into (+) from, `from` the later value in the box's order:
//                                the walk along a row or a thread's points, and the fold of the
//                                row or block partials, which is done in order
//   merge(Value& into, from)     into = into (+) from inside a device block's tree
// join and merge are the same operation except where an existing kernel used different ones
// and its result must keep its bits (MinMaxReducer).
#include "mesh/host_device.hpp"

namespace gridflow::kernels::core {

/// A sum in double, added in the order the reduction walks.
struct Sum {
  using Value = double;
  GRIDFLOW_HOST_DEVICE static constexpr double identity() { return 0.0; }
  GRIDFLOW_HOST_DEVICE static void join(double& into, double from) { into += from; }
  GRIDFLOW_HOST_DEVICE static void merge(double& into, double from) { into += from; }
};

}  // namespace gridflow::kernels::core
