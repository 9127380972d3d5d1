// Host oracle of the Dirichlet lift and the dispatch to CUDA.
#include "kernels/stencil/dirichlet_lift.hpp"

#include "kernels/core/for_each_host.hpp"
#include "kernels/core/space_dispatch.hpp"
#include "kernels/stencil/dirichlet_lift_cuda.hpp"
#include "kernels/stencil/dirichlet_lift_point.hpp"
#include "mesh/check.hpp"

namespace gridflow::kernels::stencil {

template <class T>
void dirichlet_lift(const mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, const mesh::Box<3>& box,
                    const std::array<mesh::Index, 3>& n, const PoissonCoefficients<T>& k, mesh::Field<T, 3>& b,
                    StreamHandle stream) {
  GRIDFLOW_REQUIRE(u.same_layout(f) && u.space() == f.space() && u.space() == b.space(),
                   "Dirichlet lift: u and f must share one layout, and all three fields one memory space");
  GRIDFLOW_REQUIRE(u.ghosted().contains(box.grow(1)) && b.ghosted().contains(box),
                   "Dirichlet lift box (with its neighbours) lies outside the fields");
  const mesh::Box<3> interior{{1, 1, 1}, {n[0] - 1, n[1] - 1, n[2] - 1}};
  GRIDFLOW_REQUIRE(interior.contains(box), "Dirichlet lift box reaches the boundary");
  if (box.empty()) return;
  core::run_on_space(
      "stencil::dirichlet_lift", u.space(), stream,
      [&] {
        const auto uv = u.view();
        const T* const fv = f.view().data;  // f shares u's layout: the same offsets
        const auto bv = b.view();
        const std::int64_t extent[3] = {n[0], n[1], n[2]};
        core::for_each_host("stencil::dirichlet_lift::host", box, [&](std::int64_t i, std::int64_t j, std::int64_t z) {
          const std::int64_t p[3] = {i, j, z};
          bv(i, j, z) = dirichlet_lift_point(uv.data, fv, uv.offset(i, j, z), uv.stride, p, extent, k);
        });
      },
      [&](auto) { launch_dirichlet_lift_cuda<T>(u.view(), f.view(), box, n, k, b.view(), stream); });
}

template <class T>
void prepare_dirichlet_lift(mesh::MemorySpace space) {
  if constexpr (core::cuda_built)
    if (space == mesh::MemorySpace::device) prepare_dirichlet_lift_cuda<T>();
}

template void prepare_dirichlet_lift<float>(mesh::MemorySpace);
template void prepare_dirichlet_lift<double>(mesh::MemorySpace);
template void dirichlet_lift<float>(const mesh::Field<float, 3>&, const mesh::Field<float, 3>&, const mesh::Box<3>&,
                                    const std::array<mesh::Index, 3>&, const PoissonCoefficients<float>&,
                                    mesh::Field<float, 3>&, StreamHandle);
template void dirichlet_lift<double>(const mesh::Field<double, 3>&, const mesh::Field<double, 3>&, const mesh::Box<3>&,
                                     const std::array<mesh::Index, 3>&, const PoissonCoefficients<double>&,
                                     mesh::Field<double, 3>&, StreamHandle);

}  // namespace gridflow::kernels::stencil
