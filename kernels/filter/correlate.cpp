#include "kernels/filter/correlate.hpp"

#include <algorithm>
#include <array>
#include <functional>
#include <sstream>
#include <string>
#include <utility>

#include "kernels/core/for_each_host.hpp"
#include "kernels/core/space_dispatch.hpp"
#include "kernels/filter/correlate_cuda.hpp"
#include "kernels/filter/correlate_point.hpp"
#include "kernels/filter/fft_correlate.hpp"
#include "kernels/filter/filter_passes.hpp"
#include "kernels/filter/panel_block.hpp"
#include "kernels/filter/ring_block.hpp"
#include "kernels/filter/streaming_block.hpp"
#include "kernels/filter/tiled_block.hpp"
#include "kernels/filter/warp_block.hpp"
#include "mesh/check.hpp"

namespace gridflow::kernels::filter {

template <class T, int Dim>
struct FilterPlan<T, Dim>::Scratch {
  mesh::Field<T, Dim> fields[2];
  mesh::Buffer device_weights;    // the direct kernels' weights in T
  std::size_t shared_bytes = 0;  // shared memory per block on the device of the first device apply
  // The FFT variant's transforms for the current tunables: one per separable pass (by axis) or
  // one for full weights (axis 0).
  std::array<std::unique_ptr<FftCorrelation<T, Dim>>, Dim> fft;
};

namespace {

template <class T>
std::vector<T> to_precision(const std::vector<double>& w) {
  return std::vector<T>(w.begin(), w.end());
}

template <int Dim, class... I>
Point<Dim> point_of(I... i) {
  return Point<Dim>{{static_cast<long long>(i)...}};
}

void check_tunables(const FilterTunables& t) {
  if (!t.valid()) {
    std::ostringstream os;
    os << "filter: invalid tunables " << t << " (threads a multiple of 32 in 32..1024, tile extents >= 1)";
    throw Error(os.str());
  }
}

}  // namespace

template <class T, int Dim>
FilterPlan<T, Dim>::FilterPlan(FilterWeights<Dim> weights, Boundary boundary, const mesh::Box<Dim>& global, FilterTunables tunables)
    : m_weights(std::move(weights)), m_boundary(boundary), m_global(global), m_tunables(tunables), m_scratch(std::make_unique<Scratch>()) {
  if (global.empty()) throw Error("filter: the global array is empty");
  for (int d = 0; d < Dim; ++d) {
    const int r = std::max(m_weights.lo_reach(d), m_weights.hi_reach(d));
    if (r > global.extent(d)) {
      std::ostringstream os;
      os << "filter '" << m_weights.name << "': radius " << r << " along axis " << d << " is larger than the array's extent "
         << global.extent(d);
      throw Error(os.str());
    }
  }
  check_tunables(m_tunables);
}

template <class T, int Dim>
FilterPlan<T, Dim>::FilterPlan(FilterPlan&&) noexcept = default;
template <class T, int Dim>
FilterPlan<T, Dim>& FilterPlan<T, Dim>::operator=(FilterPlan&&) noexcept = default;
template <class T, int Dim>
FilterPlan<T, Dim>::~FilterPlan() = default;

template <class T, int Dim>
void FilterPlan<T, Dim>::set_tunables(const FilterTunables& t) {
  check_tunables(t);
  if (t.fft_tile != m_tunables.fft_tile || t.fft_flow_graph != m_tunables.fft_flow_graph)
    for (auto& c : m_scratch->fft) c.reset();  // made for the old tiles or library
  m_tunables = t;
}

template <class T, int Dim>
mesh::Box<Dim> FilterPlan<T, Dim>::outputs_read(const mesh::Box<Dim>& update) const {
  if (m_tunables.variant != FilterVariant::fft) return update;
  if (!m_weights.separable) return tile_cover(fft_tiling(0), update);
  mesh::Box<Dim> whole = update;
  for (int d : active_axes(m_weights)) {  // each pass tiles its own axis
    const mesh::Box<Dim> cover = tile_cover(fft_tiling(d), update);
    whole.lo[d] = cover.lo[d];
    whole.hi[d] = cover.hi[d];
  }
  return whole;
}

template <class T, int Dim>
std::array<int, Dim> FilterPlan<T, Dim>::fft_shape(int axis) const {
  std::array<int, Dim> shape;
  for (int d = 0; d < Dim; ++d) shape[d] = m_weights.separable ? (d == axis ? m_weights.length(d) : 1) : m_weights.shape[d];
  return shape;
}

template <class T, int Dim>
FftTiling<Dim> FilterPlan<T, Dim>::fft_tiling(int axis) const {
  return make_fft_tiling<Dim>(fft_shape(axis), m_global, m_tunables.fft_tile);
}

template <class T, int Dim>
mesh::Box<Dim> FilterPlan<T, Dim>::read_box(const mesh::Box<Dim>& update) const {
  return filter::read_box(m_weights, outputs_read(update), m_global, m_boundary.mode);
}

template <class T, int Dim>
int FilterPlan<T, Dim>::reach() const {
  int r = 0;
  for (int d = 0; d < Dim; ++d) r = std::max({r, m_weights.lo_reach(d), m_weights.hi_reach(d)});
  if (m_tunables.variant != FilterVariant::fft) return r;
  // A tile reaches tile - 1 points beyond the output it holds nearest its edge, along every axis
  // outputs_read widens.
  const std::vector<int> tiled = m_weights.separable ? active_axes(m_weights) : std::vector<int>{};
  int widest = r;
  for (int d = 0; d < Dim; ++d) {
    const FftTiling<Dim> t = fft_tiling(m_weights.separable ? d : 0);
    const bool widened = m_weights.separable ? std::find(tiled.begin(), tiled.end(), d) != tiled.end() : t.is_transformed(d);
    if (widened) widest = std::max(widest, std::max(m_weights.lo_reach(d), m_weights.hi_reach(d)) + static_cast<int>(t.tile[d] - 1));
  }
  return widest;
}

template <class T, int Dim>
void FilterPlan<T, Dim>::check_fields(const mesh::Field<T, Dim>& in, const mesh::Field<T, Dim>& out, const mesh::Box<Dim>& update) const {
  std::ostringstream os;
  os << "filter '" << m_weights.name << "' on field '" << in.label() << "': ";
  if (in.space() != out.space()) throw Error(os.str() + "input and output in different memory spaces");
  if (in.allocation() == out.allocation()) throw Error(os.str() + "input and output are the same field (filtering in place is not supported)");
  if (!m_global.contains(update)) {
    os << "update box " << update << " is not inside the global array " << m_global;
    throw Error(os.str());
  }
  if (!out.ghosted().contains(update)) {
    os << "update box " << update << " is not inside the output's ghosted box " << out.ghosted();
    throw Error(os.str());
  }
  const auto reads = read_box(update);
  if (!in.ghosted().contains(reads)) {
    os << "reads " << reads << " (boundary mode " << to_string(m_boundary.mode) << ") but the field holds " << in.ghosted()
       << " (ghost width " << in.ghost_width() << "): give it ghost cells at least " << reach()
       << " deep filled by the halo exchange"
       << (m_boundary.mode == BoundaryMode::wrap ? ", and for wrap on an axis split over ranks periodic ghosts with a global box widened by the reach" : "");
    throw Error(os.str());
  }
}

template <class T, int Dim>
mesh::Field<T, Dim>& FilterPlan<T, Dim>::scratch(const mesh::Field<T, Dim>& like, int which) {
  auto& f = m_scratch->fields[which];
  if (f.allocated_elements() == 0 || !f.same_layout(like) || f.space() != like.space())
    f = mesh::Field<T, Dim>(like.owned(), like.ghost_width(), like.space(), "filter_scratch");
  return f;
}

namespace {

// The passes of a separable filter over its active axes: in -> scratch 0 -> scratch 1 -> ... -> out,
// pass(src, dst, box, axis) computing one of them. `outputs_read`: the points each pass computes
// along its own axis (update itself, or for the FFT variant the whole tiles update meets).
template <class T, int Dim, class Pass>
void run_passes(const FilterWeights<Dim>& w, const mesh::Box<Dim>& global, BoundaryMode mode, const mesh::Field<T, Dim>& in,
                mesh::Field<T, Dim>& out, const mesh::Box<Dim>& update, const mesh::Box<Dim>& outputs_read,
                const std::function<mesh::Field<T, Dim>&(int)>& scratch, const Pass& pass) {
  const auto axes = active_axes(w);
  mesh::FieldView<const T, Dim> src = in.view();
  for (std::size_t k = 0; k < axes.size(); ++k) {
    mesh::Field<T, Dim>& dst = k + 1 == axes.size() ? out : scratch(static_cast<int>(k % 2));
    pass(src, dst.view(), pass_box(w, axes[k], update, outputs_read, global, mode), axes[k]);
    src = std::as_const(dst).view();
  }
}

}  // namespace

template <class T, int Dim>
void FilterPlan<T, Dim>::apply_host(const mesh::Field<T, Dim>& in, mesh::Field<T, Dim>& out, const mesh::Box<Dim>& update) {
  m_path = "host";
  const Extension<Dim> e = extension_of(m_global, m_boundary.mode);
  const T cval = static_cast<T>(m_boundary.cval);
  if (!m_weights.separable) {
    const std::vector<T> w = to_precision<T>(m_weights.full);
    int shape[Dim];
    for (int d = 0; d < Dim; ++d) shape[d] = m_weights.shape[d];
    const auto src = in.view();
    const auto dst = out.view();
    core::for_each_host("filter::correlate::host", update,
                        [&](auto... i) { dst(i...) = full_point<T, Dim>(src, point_of<Dim>(i...), w.data(), shape, e, cval); });
    return;
  }
  run_passes<T, Dim>(m_weights, m_global, m_boundary.mode, in, out, update, update,
                     [&](int k) -> mesh::Field<T, Dim>& { return scratch(in, k); },
                     [&](mesh::FieldView<const T, Dim> src, mesh::FieldView<T, Dim> dst, const mesh::Box<Dim>& box, int axis) {
                       const std::vector<T> w = to_precision<T>(m_weights.axis[axis]);
                       const int length = static_cast<int>(w.size());
                       core::for_each_host("filter::correlate::host", box, [&](auto... i) {
                         dst(i...) = axis_pass_point<T, Dim>(src, point_of<Dim>(i...), axis, w.data(), length, e, cval);
                       });
                     });
}

template <class T, int Dim>
template <class CudaBuild>
void FilterPlan<T, Dim>::apply_device(const mesh::Field<T, Dim>& in, mesh::Field<T, Dim>& out, const mesh::Box<Dim>& update,
                                      StreamHandle stream, CudaBuild) {
  const Extension<Dim> e = extension_of(m_global, m_boundary.mode);
  const T cval = static_cast<T>(m_boundary.cval);
  if (m_scratch->device_weights.bytes() == 0) {  // the direct kernels' weights: axis d at d * max_axis_length, or the full box
    std::vector<T> w = to_precision<T>(m_weights.full);
    if (m_weights.separable) {
      w.assign(static_cast<std::size_t>(Dim * max_axis_length), T(0));
      for (int d = 0; d < Dim; ++d) std::copy(m_weights.axis[d].begin(), m_weights.axis[d].end(), w.begin() + d * max_axis_length);
    }
    m_scratch->device_weights = mesh::Buffer(w.size() * sizeof(T), mesh::MemorySpace::device);
    mesh::copy_bytes(m_scratch->device_weights.data(), mesh::MemorySpace::device, w.data(), mesh::MemorySpace::host, w.size() * sizeof(T));
    m_scratch->shared_bytes = device_shared_bytes_per_block();
  }
  const T* device_weights = static_cast<const T*>(m_scratch->device_weights.data());
  if (!m_weights.separable) {
    m_path = "direct";
    launch_full_cuda<T, Dim>(in.view(), out.view(), update, device_weights, m_weights.shape, e, cval, stream);
    return;
  }
  // The panel or warp kernel (2D) where one is compiled for the weights and fits; else the ring defaults.
  FilterTunables asked = m_tunables;
  if (asked.variant == FilterVariant::panel || asked.variant == FilterVariant::warp) {
    if constexpr (Dim == 2) {
      const bool panel = asked.variant == FilterVariant::panel;
      const int k = panel ? panel_length<Dim>(m_weights.axis) : warp_length<Dim>(m_weights.axis);
      if (k != 0 && (panel ? panel_shared_bytes<T>(asked, k) : warp_shared_bytes<T>(asked, k)) <= m_scratch->shared_bytes) {
        m_path = panel ? "panel" : "warp";
        if (panel) launch_panel_cuda<T>(asked, in.view(), out.view(), update, m_weights.axis, e, cval, stream);
        else launch_warp_cuda<T>(asked, in.view(), out.view(), update, m_weights.axis, e, cval, stream);
        return;
      }
    }
    asked = FilterTunables::ring_defaults_for(Dim);
  }
  // Ring where a kernel is compiled for the weights and fits; else the streaming defaults.
  if (asked.variant == FilterVariant::ring) {
    const auto length = ring_lengths<Dim>(m_weights.axis);
    if (length[0] != 0 && asked.threads <= ring_max_threads(length) && ring_shared_bytes<T, Dim>(asked, length) <= m_scratch->shared_bytes) {
      m_path = "ring";
      launch_ring_cuda<T, Dim>(asked, in.view(), out.view(), update, m_weights.axis, e, cval, stream);
      return;
    }
    asked = FilterTunables::streaming_defaults_for(Dim);
  }
  // Streaming where it applies and fits; else the tiled variant (streaming tunables run the tiled
  // defaults) where its shared memory fits: fused, else one launch per axis, else direct.
  if (asked.variant == FilterVariant::streaming && streaming_applies<Dim>(m_weights.axis) &&
      streaming_shared_bytes<T, Dim>(asked, update, m_weights.axis) <= m_scratch->shared_bytes) {
    m_path = "streaming";
    launch_streaming_cuda<T, Dim>(asked, in.view(), out.view(), update, m_weights.axis, e, cval, stream);
    return;
  }
  const FilterTunables tunables = asked.variant == FilterVariant::streaming ? FilterTunables::tiled_defaults_for(Dim) : asked;
  std::array<int, 3> lengths{1, 1, 1};
  for (int d = 0; d < Dim; ++d) lengths[d] = m_weights.length(d);
  const auto fits = [&](const std::array<int, 3>& tile, const std::array<int, 3>& length) {
    return tiled_shared_bytes<Dim>(tile, length, sizeof(T)) <= m_scratch->shared_bytes;
  };
  bool tiled = tunables.variant != FilterVariant::direct;
  if (tiled && tunables.fused && fits(tile_extents<Dim>(tunables, update), lengths)) {
    m_path = "tiled fused";
    launch_tiled_cuda<T, Dim>(tunables, in.view(), out.view(), update, m_weights.axis, e, cval, stream);
    return;
  }
  const std::array<int, 3> whole_tile{tunables.tile_x, tunables.tile_y, Dim == 3 ? tunables.tile_z : 1};
  for (int d = 0; d < Dim && tiled; ++d) {
    std::array<int, 3> one{1, 1, 1};
    one[d] = lengths[d];
    tiled = fits(whole_tile, one);
  }
  m_path = tiled ? "tiled per axis" : "direct";
  run_passes<T, Dim>(m_weights, m_global, m_boundary.mode, in, out, update, update,
                     [&](int k) -> mesh::Field<T, Dim>& { return scratch(in, k); },
                     [&](mesh::FieldView<const T, Dim> src, mesh::FieldView<T, Dim> dst, const mesh::Box<Dim>& box, int axis) {
                       if (!tiled)
                         return launch_axis_pass_cuda<T, Dim>(src, dst, box, axis, device_weights + axis * max_axis_length,
                                                              m_weights.length(axis), e, cval, stream);
                       std::array<std::vector<double>, Dim> one_axis;
                       for (int d = 0; d < Dim; ++d) one_axis[d] = d == axis ? m_weights.axis[d] : identity_weights();
                       launch_tiled_cuda<T, Dim>(tunables, src, dst, box, one_axis, e, cval, stream);
                     });
}

template <class T, int Dim>
FftCorrelation<T, Dim>& FilterPlan<T, Dim>::fft_correlation(int axis, mesh::MemorySpace space) {
  auto& slot = m_scratch->fft[axis];
  if (!slot || slot->space() != space)
    slot = std::make_unique<FftCorrelation<T, Dim>>(m_weights.separable ? m_weights.axis[axis] : m_weights.full, fft_shape(axis), m_global,
                                                    m_boundary, m_tunables.fft_tile, m_tunables.fft_flow_graph, space);
  return *slot;
}

template <class T, int Dim>
void FilterPlan<T, Dim>::apply_fft(const mesh::Field<T, Dim>& in, mesh::Field<T, Dim>& out, const mesh::Box<Dim>& update, StreamHandle stream) {
  const char* library = "fftw";
  if (!m_weights.separable) {
    auto& c = fft_correlation(0, in.space());
    c.apply(in.view(), out.view(), update, stream);
    library = c.library();
  } else {
    run_passes<T, Dim>(m_weights, m_global, m_boundary.mode, in, out, update, outputs_read(update),
                       [&](int k) -> mesh::Field<T, Dim>& { return scratch(in, k); },
                       [&](mesh::FieldView<const T, Dim> src, mesh::FieldView<T, Dim> dst, const mesh::Box<Dim>& box, int axis) {
                         auto& c = fft_correlation(axis, in.space());
                         c.apply(src, dst, box, stream);
                         library = c.library();
                       });
  }
  m_path = std::string(library) == "fftw" ? "fft fftw" : std::string(library) == "cufft" ? "fft cufft" : "fft flow_graph";
}

template <class T, int Dim>
void FilterPlan<T, Dim>::apply(const mesh::Field<T, Dim>& in, mesh::Field<T, Dim>& out, const mesh::Box<Dim>& update, StreamHandle stream) {
  check_fields(in, out, update);
  if (update.empty()) return;
  if (m_tunables.variant == FilterVariant::fft) {
    if (in.space() == mesh::MemorySpace::device) core::require_stream(stream, "filter::fft");
    return apply_fft(in, out, update, stream);
  }
  core::run_on_space(
      "filter::correlate", in.space(), stream, [&] { apply_host(in, out, update); },
      [&](auto build) { apply_device(in, out, update, stream, build); });
}

template <class T, int Dim>
void correlate(const mesh::Field<T, Dim>& in, mesh::Field<T, Dim>& out, const mesh::Box<Dim>& update, const mesh::Box<Dim>& global,
               const FilterWeights<Dim>& weights, const Boundary& boundary, const FilterTunables& tunables, StreamHandle stream) {
  FilterPlan<T, Dim> plan(weights, boundary, global, tunables);
  plan.apply(in, out, update, stream);
  // The plan's scratch is freed on return; device work still queued on `stream` may use it.
  mesh::synchronize(in.space(), stream);
}

#define GRIDFLOW_INSTANTIATE_FILTER_PLAN(T, D)                                                                                  \
  template class FilterPlan<T, D>;                                                                                              \
  template void correlate<T, D>(const mesh::Field<T, D>&, mesh::Field<T, D>&, const mesh::Box<D>&, const mesh::Box<D>&,         \
                                const FilterWeights<D>&, const Boundary&, const FilterTunables&, StreamHandle);
GRIDFLOW_INSTANTIATE_FILTER_PLAN(float, 2)
GRIDFLOW_INSTANTIATE_FILTER_PLAN(double, 2)
GRIDFLOW_INSTANTIATE_FILTER_PLAN(float, 3)
GRIDFLOW_INSTANTIATE_FILTER_PLAN(double, 3)
#undef GRIDFLOW_INSTANTIATE_FILTER_PLAN

}  // namespace gridflow::kernels::filter
