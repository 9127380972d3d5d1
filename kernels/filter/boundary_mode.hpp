#pragma once
// How a filter extends the GLOBAL array beyond its edges: scipy.ndimage's `mode` and `cval`.
// With the array a b c d (n = 4):
//   constant  k k k | a b c d | k k k    (k = cval)
//   nearest   a a a | a b c d | d d d
//   reflect   c b a | a b c d | d c b    (the default, as in scipy)
//   mirror    d c b | a b c d | c b a
//   wrap      b c d | a b c d | a b c
#include <string>

#include "mesh/host_device.hpp"

namespace gridflow::kernels::filter {

enum class BoundaryMode { constant, nearest, reflect, mirror, wrap };

/// The extension of the global array: the mode, and the value beyond it for `constant`.
struct Boundary {
  BoundaryMode mode = BoundaryMode::reflect;
  double cval = 0.0;  ///< only read by `constant`
};

/// scipy's spelling: "constant", "nearest", "reflect", "mirror", "wrap".
const char* to_string(BoundaryMode mode);
/// The mode spelled `name`; throws Error naming the valid ones for anything else.
BoundaryMode parse_boundary_mode(const std::string& name);

/// Index into 0..n-1 that the extended array takes its value from at index i (any integer;
/// several periods away too), or -1 where `constant` gives cval. n >= 1.
GRIDFLOW_HOST_DEVICE inline long long boundary_index(long long i, long long n, BoundaryMode mode) {
  if (i >= 0 && i < n) return i;
  switch (mode) {
    case BoundaryMode::constant: return -1;
    case BoundaryMode::nearest: return i < 0 ? 0 : n - 1;
    case BoundaryMode::wrap: {
      const long long m = i % n;
      return m < 0 ? m + n : m;
    }
    case BoundaryMode::reflect: {  // period 2n, the edge value repeated
      long long m = i % (2 * n);
      if (m < 0) m += 2 * n;
      return m < n ? m : 2 * n - 1 - m;
    }
    case BoundaryMode::mirror: {  // period 2n - 2, the edge value not repeated
      if (n == 1) return 0;
      long long m = i % (2 * n - 2);
      if (m < 0) m += 2 * n - 2;
      return m < n ? m : 2 * n - 2 - m;
    }
  }
  return -1;
}

}  // namespace gridflow::kernels::filter
