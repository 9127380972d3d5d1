#pragma once
// MinMax<T> and its reducer: the least and greatest finite value of a box and whether every value
// is finite, for the host and device reductions of reduce_host.hpp and reduce_cuda.cuh.
#include <cmath>

#include "mesh/host_device.hpp"

namespace gridflow::kernels::core {

template <class T>
struct MinMax {
  T min;        ///< +inf when no value is finite
  T max;        ///< -inf when no value is finite
  bool finite;  ///< false when any value is NaN or infinite
};

template <class T>
struct MinMaxReducer {
  using Value = MinMax<T>;

  GRIDFLOW_HOST_DEVICE static Value identity() { return {T(INFINITY), T(-INFINITY), true}; }

  /// The value of one point: itself, or nothing but "not finite".
  GRIDFLOW_HOST_DEVICE static Value of(T v) {
#ifdef __CUDA_ARCH__
    const bool finite = isfinite(v);
#else
    const bool finite = std::isfinite(v);
#endif
    return finite ? Value{v, v, true} : Value{T(INFINITY), T(-INFINITY), false};
  }

  /// The earlier value wins a tie (-0 against +0 included): the first least value in box order.
  GRIDFLOW_HOST_DEVICE static void join(Value& into, const Value& from) {
    into.min = from.min < into.min ? from.min : into.min;
    into.max = from.max > into.max ? from.max : into.max;
    into.finite = into.finite && from.finite;
  }

  /// CUDA's min() and max(), as the device tree has always merged (they need not break a tie
  /// between -0 and +0 the way join does).
  GRIDFLOW_HOST_DEVICE static void merge(Value& into, const Value& from) {  // host: no tree, never called
#ifdef __CUDA_ARCH__
    into.min = min(into.min, from.min);
    into.max = max(into.max, from.max);
    into.finite = into.finite && from.finite;
#else
    join(into, from);
#endif
  }
};

}  // namespace gridflow::kernels::core
