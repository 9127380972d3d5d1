#include "kernels/stencil/heat.hpp"

#include <utility>

#include "kernels/core/for_each_host.hpp"
#include "kernels/core/space_dispatch.hpp"
#include "kernels/stencil/heat_cuda.hpp"
#include "kernels/stencil/heat_point.hpp"

namespace gridflow::kernels::stencil {

namespace {
template <class T>
void check_fields(const mesh::Field<T, 2>& in, const mesh::Field<T, 2>& out, const mesh::Box<2>& update) {
  GRIDFLOW_REQUIRE(in.same_layout(out) && in.space() == out.space(), "heat step needs two fields of one layout and space");
  GRIDFLOW_REQUIRE(in.ghosted().contains(update.grow(1)), "heat step update box reaches outside the ghosted box");
}
}  // namespace

template <class T>
void heat_step_host(const mesh::Field<T, 2>& in, mesh::Field<T, 2>& out, const mesh::Box<2>& update, HeatCoefficients<T> c,
                    const core::NonFiniteWatch& watch) {
  check_fields(in, out, update);
  if (update.empty()) return;
  const auto u = in.view();
  const auto v = out.view();
  const auto i0 = update.lo[0], i1 = update.hi[0];
  core::for_each_row_host("stencil::heat::host", update, [&](const std::int64_t j) {
    const T cx = c.cx, cy = c.cy;  // locals: stores through dst cannot change them, so the row vectorises
    const T* row = &u(i0, j);
    const T* south = &u(i0, j - 1);
    const T* north = &u(i0, j + 1);
    T* dst = &v(i0, j);
    decltype(core::non_finite_bits(cx)) non_finite = 0;  // a subtraction and an OR a value, vectorised with the row
    for (std::int64_t k = 0; k <= i1 - i0; ++k) {
      const T value = heat_point(row[k], row[k - 1], row[k + 1], south[k], north[k], cx, cy);
      dst[k] = value;
      non_finite |= core::non_finite_bits(value);
    }
    if (!non_finite || !watch.slot) return;
    for (std::int64_t k = 0; k <= i1 - i0; ++k)  // the rare row that has one: find the first
      if (!core::finite_value(dst[k])) return core::record_non_finite(watch.slot, watch.key(watch.step, i0 + k, j));
  });
}

template <class T>
void heat_step(const mesh::Field<T, 2>& in, mesh::Field<T, 2>& out, const mesh::Box<2>& update, HeatCoefficients<T> c,
               const HeatCudaParams& params, StreamHandle stream, const core::NonFiniteWatch& watch) {
  core::run_on_space(
      "stencil::heat", in.space(), stream, [&] { heat_step_host(in, out, update, c, watch); },
      [&](auto) {
        check_fields(in, out, update);
        launch_heat_cuda<T>(params, in.view(), out.view(), update, c.cx, c.cy, stream, watch);
      });
}

namespace {
/// Sets the boundary points of `ring`'s box in `field` to their values at step s (a reference:
/// it visits the whole box).
template <class T>
void set_ring(mesh::Field<T, 2>& field, const HeatRing<T>& ring, int s) {
  const auto box = ring.box.intersect(field.ghosted());
  const auto at = ring.view();
  for (auto j = box.lo[1]; j <= box.hi[1]; ++j)
    for (auto i = box.lo[0]; i <= box.hi[0]; ++i)
      if (const long long k = at.index(s, static_cast<int>(i), static_cast<int>(j)); k >= 0) field(i, j) = ring.values[k];
}
}  // namespace

// The reference for fused steps: single host steps on the boxes that still reach `update`, through
// scratch copies of `in`'s layout, with the ring's boundary values set between them.
template <class T>
void heat_steps_host(const mesh::Field<T, 2>& in, mesh::Field<T, 2>& out, const mesh::Box<2>& update,
                     const mesh::Box<2>& active, int steps, HeatCoefficients<T> c, const core::NonFiniteWatch& watch,
                     const HeatRing<T>& ring) {
  mesh::Field<T, 2> now(in.owned(), in.ghost_width(), mesh::MemorySpace::host, "heat_steps_now");
  mesh::Field<T, 2> next(in.owned(), in.ghost_width(), mesh::MemorySpace::host, "heat_steps_next");
  now.copy_from(in);
  next.copy_from(in);
  for (int q = 0; q < steps; ++q) {
    core::NonFiniteWatch at_step = watch;
    at_step.step = watch.step + q;
    heat_step_host(now, next, update.grow(steps - 1 - q).intersect(active), c, at_step);
    if (ring.moving() && q + 1 < steps) set_ring(next, ring, q + 1);
    std::swap(now, next);
  }
  for (auto j = update.lo[1]; j <= update.hi[1]; ++j)
    for (auto i = update.lo[0]; i <= update.hi[0]; ++i) out(i, j) = now(i, j);
}

template <class T>
void heat_steps(const mesh::Field<T, 2>& in, mesh::Field<T, 2>& out, const mesh::Box<2>& update,
                const mesh::Box<2>& active, int steps, HeatCoefficients<T> c, const HeatCudaParams& params,
                StreamHandle stream, const core::NonFiniteWatch& watch, const HeatRing<T>& ring) {
  GRIDFLOW_REQUIRE(steps >= 1, "heat steps: at least one step");
  GRIDFLOW_REQUIRE(active.contains(update), "heat steps: the update box must lie in the active box");
  if (steps == 1) return heat_step(in, out, update, c, params, stream, watch);
  GRIDFLOW_REQUIRE(in.same_layout(out) && in.space() == out.space(), "heat steps need two fields of one layout and space");
  if (update.empty()) return;
  GRIDFLOW_REQUIRE(in.ghosted().contains(update.grow(steps).intersect(active.grow(1))),
                   "heat steps read points outside the ghosted box");
  core::run_on_space(
      "stencil::heat", in.space(), stream, [&] { heat_steps_host(in, out, update, active, steps, c, watch, ring); },
      [&](auto) {
        if (params.stream_cells_x > 0)
          launch_heat_stream_cuda<T>(params, in.view(), out.view(), update, active, steps, c.cx, c.cy, ring, stream, watch);
        else
          launch_heat_fused_cuda<T>(params, in.view(), out.view(), update, active, steps, c.cx, c.cy, ring, stream, watch);
      });
}

template void heat_step_host<float>(const mesh::Field<float, 2>&, mesh::Field<float, 2>&, const mesh::Box<2>&, HeatCoefficients<float>,
                                    const core::NonFiniteWatch&);
template void heat_step_host<double>(const mesh::Field<double, 2>&, mesh::Field<double, 2>&, const mesh::Box<2>&, HeatCoefficients<double>,
                                     const core::NonFiniteWatch&);
template void heat_step<float>(const mesh::Field<float, 2>&, mesh::Field<float, 2>&, const mesh::Box<2>&, HeatCoefficients<float>,
                               const HeatCudaParams&, StreamHandle, const core::NonFiniteWatch&);
template void heat_step<double>(const mesh::Field<double, 2>&, mesh::Field<double, 2>&, const mesh::Box<2>&, HeatCoefficients<double>,
                                const HeatCudaParams&, StreamHandle, const core::NonFiniteWatch&);
template void heat_steps<float>(const mesh::Field<float, 2>&, mesh::Field<float, 2>&, const mesh::Box<2>&,
                                const mesh::Box<2>&, int, HeatCoefficients<float>, const HeatCudaParams&, StreamHandle, const core::NonFiniteWatch&,
                                const HeatRing<float>&);
template void heat_steps<double>(const mesh::Field<double, 2>&, mesh::Field<double, 2>&, const mesh::Box<2>&,
                                 const mesh::Box<2>&, int, HeatCoefficients<double>, const HeatCudaParams&, StreamHandle, const core::NonFiniteWatch&,
                                 const HeatRing<double>&);

}  // namespace gridflow::kernels::stencil
