// Host oracle of the residual and operator kernels and the dispatch to the CUDA variants.
#include "kernels/core/for_each_host.hpp"
#include "kernels/core/space_dispatch.hpp"
#include "kernels/multigrid/field_checks.hpp"
#include "kernels/multigrid/residual.hpp"
#include "kernels/multigrid/residual_cuda.hpp"

namespace gridflow::kernels::multigrid {

template <class T>
void residual(const mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, mesh::Field<T, 3>& r, const mesh::Box<3>& box,
              const PoissonCoefficients<T>& c, StreamHandle stream) {
  constexpr const char* name = "multigrid::residual";
  require_same_space(u, f, name);
  require_same_space(u, r, name);
  require_reach(u, box.grow(1), name);
  require_reach(f, box, name);
  require_reach(r, box, name);
  if (box.empty()) return;
  core::run_on_space(
      name, u.space(), stream,
      [&] {
        const auto uv = u.view();
        const auto fv = f.view();
        const auto rv = r.view();
        core::for_each_host("multigrid::residual::host", box,
                            [&](std::int64_t i, std::int64_t j, std::int64_t k) { rv(i, j, k) = residual_at(uv, fv, i, j, k, c); });
      },
      [&](auto) { residual_cuda<T>(u.view(), f.view(), r.view(), box, c, stream); });
}

template <class T>
void apply_laplacian(const mesh::Field<T, 3>& u, mesh::Field<T, 3>& out, const mesh::Box<3>& box,
                     const PoissonCoefficients<T>& c, StreamHandle stream) {
  constexpr const char* name = "multigrid::apply_laplacian";
  GRIDFLOW_REQUIRE(&u != &out, std::string(name) + ": input and output must be different fields");
  require_same_space(u, out, name);
  require_reach(u, box.grow(1), name);
  require_reach(out, box, name);
  if (box.empty()) return;
  core::run_on_space(
      name, u.space(), stream,
      [&] {
        const auto uv = u.view();
        const auto ov = out.view();
        core::for_each_host("multigrid::apply_laplacian::host", box,
                            [&](std::int64_t i, std::int64_t j, std::int64_t k) { ov(i, j, k) = laplacian_at(uv, i, j, k, c); });
      },
      [&](auto) { apply_laplacian_cuda<T>(u.view(), out.view(), box, c, stream); });
}

#define GRIDFLOW_INSTANTIATE_RESIDUAL(T)                                                                            \
  template void residual<T>(const mesh::Field<T, 3>&, const mesh::Field<T, 3>&, mesh::Field<T, 3>&, const mesh::Box<3>&, \
                            const PoissonCoefficients<T>&, StreamHandle);                                           \
  template void apply_laplacian<T>(const mesh::Field<T, 3>&, mesh::Field<T, 3>&, const mesh::Box<3>&,                \
                                   const PoissonCoefficients<T>&, StreamHandle);
GRIDFLOW_INSTANTIATE_RESIDUAL(float)
GRIDFLOW_INSTANTIATE_RESIDUAL(double)
#undef GRIDFLOW_INSTANTIATE_RESIDUAL

}  // namespace gridflow::kernels::multigrid
