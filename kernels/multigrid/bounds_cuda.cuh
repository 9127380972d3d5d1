#pragma once
// Bounds: a box's inclusive bounds as a plain struct that CUDA kernels take by value (mesh::Box's
// std::array is host-only). Only .cu files include this.
#include "mesh/box.hpp"

namespace gridflow::kernels::multigrid {

struct Bounds {
  long long lo[3], hi[3];
  static Bounds of(const mesh::Box<3>& b) { return {{b.lo[0], b.lo[1], b.lo[2]}, {b.hi[0], b.hi[1], b.hi[2]}}; }
  __device__ bool holds(int d, long long v) const { return v >= lo[d] && v <= hi[d]; }
  __device__ bool holds(long long i, long long j, long long k) const { return holds(0, i) && holds(1, j) && holds(2, k); }
};

}  // namespace gridflow::kernels::multigrid
