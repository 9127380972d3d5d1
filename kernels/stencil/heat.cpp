#include "kernels/stencil/heat.hpp"

#include <Kokkos_Core.hpp>

#include "gridflow/config.hpp"
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
void heat_step_host(const mesh::Field<T, 2>& in, mesh::Field<T, 2>& out, const mesh::Box<2>& update, HeatCoefficients<T> c) {
  check_fields(in, out, update);
  if (update.empty()) return;
  const auto u = in.view();
  const auto v = out.view();
  const auto i0 = update.lo[0], i1 = update.hi[0];
  Kokkos::parallel_for(
      "stencil::heat::host", Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(update.lo[1], update.hi[1] + 1),
      [=](const std::int64_t j) {
        const T* row = &u(i0, j);
        const T* south = &u(i0, j - 1);
        const T* north = &u(i0, j + 1);
        T* dst = &v(i0, j);
        for (std::int64_t k = 0; k <= i1 - i0; ++k)
          dst[k] = heat_point(row[k], row[k - 1], row[k + 1], south[k], north[k], c.cx, c.cy);
      });
}

template <class T>
void heat_step(const mesh::Field<T, 2>& in, mesh::Field<T, 2>& out, const mesh::Box<2>& update, HeatCoefficients<T> c,
               const HeatCudaParams& params, StreamHandle stream) {
  if (in.space() == mesh::MemorySpace::host) return heat_step_host(in, out, update, c);
  check_fields(in, out, update);
#if GRIDFLOW_HAVE_CUDA
  launch_heat_cuda<T>(params, in.view(), out.view(), update, c.cx, c.cy, stream);
#else
  (void)params;
  (void)stream;
  GRIDFLOW_REQUIRE(false, "device fields in a build without CUDA");
#endif
}

template void heat_step_host<float>(const mesh::Field<float, 2>&, mesh::Field<float, 2>&, const mesh::Box<2>&, HeatCoefficients<float>);
template void heat_step_host<double>(const mesh::Field<double, 2>&, mesh::Field<double, 2>&, const mesh::Box<2>&, HeatCoefficients<double>);
template void heat_step<float>(const mesh::Field<float, 2>&, mesh::Field<float, 2>&, const mesh::Box<2>&, HeatCoefficients<float>,
                               const HeatCudaParams&, StreamHandle);
template void heat_step<double>(const mesh::Field<double, 2>&, mesh::Field<double, 2>&, const mesh::Box<2>&, HeatCoefficients<double>,
                                const HeatCudaParams&, StreamHandle);

}  // namespace gridflow::kernels::stencil
