#pragma once
// The index arithmetic of a filter on a decomposed field, shared by the host reference and the
// CUDA launchers: which points are read, and over which box each axis pass of a separable filter
// runs. Pass a (axis 0 first) computes its values on the update box widened along the axes still
// to be filtered (d > a) to every index those later passes read, so pass a + 1 finds them.
#include <algorithm>
#include <vector>

#include "kernels/filter/boundary_mode.hpp"
#include "kernels/filter/correlate_point.hpp"
#include "kernels/filter/filter_weights.hpp"
#include "mesh/box.hpp"

namespace gridflow::kernels::filter {

/// The smallest index range holding every index read for outputs lo..hi of an axis of the global
/// range glo..glo+gn-1 with reaches lo_reach, hi_reach, after mapping by the mode (indices that
/// `constant` turns into cval are not read). lo > hi when nothing is read.
inline std::pair<mesh::Index, mesh::Index> read_range(mesh::Index lo, mesh::Index hi, int lo_reach, int hi_reach, mesh::Index glo,
                                                      mesh::Index gn, BoundaryMode mode) {
  mesh::Index first = std::max(lo - lo_reach, glo), last = std::min(hi + hi_reach, glo + gn - 1);
  auto include = [&](mesh::Index i) {
    const mesh::Index m = static_cast<mesh::Index>(boundary_index(i - glo, gn, mode));
    if (m < 0) return;
    first = std::min(first, glo + m);
    last = std::max(last, glo + m);
  };
  for (mesh::Index i = lo - lo_reach; i < glo && i <= hi + hi_reach; ++i) include(i);
  for (mesh::Index i = std::max(hi + hi_reach, glo + gn - 1); i > glo + gn - 1 && i >= lo - lo_reach; --i) include(i);
  return {first, last};
}

template <int Dim>
Extension<Dim> extension_of(const mesh::Box<Dim>& global, BoundaryMode mode) {
  Extension<Dim> e{};
  for (int d = 0; d < Dim; ++d) {
    e.lo[d] = global.lo[d];
    e.n[d] = global.extent(d);
  }
  e.mode = mode;
  return e;
}

/// The box of the input field a filter with `w` reads for outputs on `update`.
template <int Dim>
mesh::Box<Dim> read_box(const FilterWeights<Dim>& w, const mesh::Box<Dim>& update, const mesh::Box<Dim>& global, BoundaryMode mode) {
  mesh::Box<Dim> b;
  for (int d = 0; d < Dim; ++d) {
    const auto r = read_range(update.lo[d], update.hi[d], w.lo_reach(d), w.hi_reach(d), global.lo[d], global.extent(d), mode);
    b.lo[d] = r.first;
    b.hi[d] = r.second;
  }
  return b;
}

/// The box pass `axis` of a separable filter writes: `update`, widened along every later axis to
/// the indices that axis's pass reads when it computes `outputs_read` (update itself, or for the
/// FFT variant the whole tiles that update meets).
template <int Dim>
mesh::Box<Dim> pass_box(const FilterWeights<Dim>& w, int axis, const mesh::Box<Dim>& update, const mesh::Box<Dim>& outputs_read,
                        const mesh::Box<Dim>& global, BoundaryMode mode) {
  const mesh::Box<Dim> reads = read_box(w, outputs_read, global, mode);
  mesh::Box<Dim> b = update;
  for (int d = axis + 1; d < Dim; ++d) {
    b.lo[d] = reads.lo[d];
    b.hi[d] = reads.hi[d];
  }
  return b;
}

/// The axes a separable filter must pass over: those whose weights are not the single 1 (an axis
/// left alone is an exact copy). Never empty: a filter that changes nothing copies along x.
template <int Dim>
std::vector<int> active_axes(const FilterWeights<Dim>& w) {
  std::vector<int> axes;
  for (int d = 0; d < Dim; ++d)
    if (!(w.axis[d].size() == 1 && w.axis[d][0] == 1.0)) axes.push_back(d);
  if (axes.empty()) axes.push_back(0);
  return axes;
}

}  // namespace gridflow::kernels::filter
