// Host oracle of the Jacobi family and the dispatch to the CUDA variants.
#include "kernels/core/reduce_host.hpp"
#include "kernels/core/space_dispatch.hpp"
#include "kernels/stencil/jacobi.hpp"
#include "kernels/stencil/jacobi_cuda.hpp"

namespace gridflow::kernels::stencil {

namespace {

template <class T>
void require_layout(const mesh::Field<T, 3>& a, const mesh::Field<T, 3>& b, const mesh::Field<T, 3>& f,
                    const mesh::Box<3>& update) {
  GRIDFLOW_REQUIRE(a.same_layout(b) && a.same_layout(f) && a.space() == b.space() && a.space() == f.space(),
                   "Jacobi fields must share one layout and memory space");
  GRIDFLOW_REQUIRE(a.ghosted().contains(update.grow(1)), "Jacobi update box reaches outside the ghosted box");
}

// One sweep on the host; accumulates the squared residual of `in` over norm_box when asked.
template <class T>
double host_sweep(const mesh::Field<T, 3>& in, mesh::Field<T, 3>& out, const mesh::Field<T, 3>& f, const mesh::Box<3>& update,
                  const mesh::Box<3>* norm_box, const PoissonCoefficients<T>& k) {
  const auto u = in.view();
  const auto v = out.view();
  const auto rhs = f.view();
  const auto sy = u.stride[1], sz = u.stride[2];
  const auto i0 = update.lo[0], nx = update.extent(0);
  return core::reduce_rows_host<core::Sum>("stencil::poisson::host", update, [&](std::int64_t j, std::int64_t z) {
    const T* c = &u(i0, j, z);
    const T* fr = &rhs(i0, j, z);
    T* o = &v(i0, j, z);
    for (std::int64_t x = 0; x < nx; ++x)
      o[x] = jacobi_point(c[x - 1], c[x + 1], c[x - sy], c[x + sy], c[x - sz], c[x + sz], fr[x], k);
    double acc = 0;
    if (norm_box && j >= norm_box->lo[1] && j <= norm_box->hi[1] && z >= norm_box->lo[2] && z <= norm_box->hi[2])
      for (std::int64_t i = norm_box->lo[0]; i <= norm_box->hi[0]; ++i) {
        const std::int64_t x = i - i0;
        const double r = static_cast<double>(fr[x]) -
                         static_cast<double>(laplacian_point(c[x], c[x - 1], c[x + 1], c[x - sy], c[x + sy], c[x - sz], c[x + sz], k));
        acc += r * r;
      }
    return acc;
  });
}

// Sum over `box` of (f - A u)^2 on the host.
template <class T>
double host_residual_norm_squared(const mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, const mesh::Box<3>& box,
                                  const PoissonCoefficients<T>& k) {
  const auto uv = u.view();
  const auto rhs = f.view();
  const auto sy = uv.stride[1], sz = uv.stride[2];
  return core::reduce_rows_host<core::Sum>("stencil::poisson::host", box, [&](std::int64_t j, std::int64_t z) {
    const T* c = &uv(box.lo[0], j, z);
    const T* fr = &rhs(box.lo[0], j, z);
    double acc = 0;
    for (std::int64_t x = 0; x < box.extent(0); ++x) {
      const double r = static_cast<double>(fr[x]) -
                       static_cast<double>(laplacian_point(c[x], c[x - 1], c[x + 1], c[x - sy], c[x + sy], c[x - sz], c[x + sz], k));
      acc += r * r;
    }
    return acc;
  });
}

}  // namespace

template <class T>
void jacobi_sweep(const mesh::Field<T, 3>& in, mesh::Field<T, 3>& out, const mesh::Field<T, 3>& f, const mesh::Box<3>& update,
                  const PoissonCoefficients<T>& k, const JacobiCudaParams& params, StreamHandle stream) {
  require_layout(in, out, f, update);
  if (update.empty()) return;
  core::run_on_space(
      "stencil::jacobi", in.space(), stream, [&] { host_sweep(in, out, f, update, nullptr, k); },
      [&](auto) { launch_jacobi_cuda<T>(params, in.view(), out.view(), f.view(), update, nullptr, k, nullptr, stream); });
}

template <class T>
void jacobi_sweeps(const mesh::Field<T, 3>& in, mesh::Field<T, 3>& out, const mesh::Field<T, 3>& f, int sweeps,
                   const mesh::Box<3>& update, const mesh::Box<3>& active, const PoissonCoefficients<T>& k,
                   const JacobiCudaParams& params, StreamHandle stream) {
  GRIDFLOW_REQUIRE(sweeps >= 1, "Jacobi sweeps: the count must be at least 1");
  GRIDFLOW_REQUIRE(update.empty() || active.contains(update), "Jacobi sweeps: the update box must lie inside the active box");
  if (sweeps == 1) return jacobi_sweep(in, out, f, update, k, params, stream);
  require_layout(in, out, f, jacobi_sweep_box(sweeps, 0, update, active));
  if (update.empty()) return;
  core::run_on_space(
      "stencil::jacobi", in.space(), stream,
      [&] {
        // Sweep s writes scratch[s % 2], which starts as `in` so that the points no sweep
        // updates read as they would in `in`; the last sweep writes `out`.
        mesh::Field<T, 3> scratch[2] = {{in.owned(), in.ghost_width(), in.space(), "jacobi_sweeps"},
                                        {in.owned(), in.ghost_width(), in.space(), "jacobi_sweeps"}};
        scratch[0].copy_from(in);
        scratch[1].copy_from(in);
        const mesh::Field<T, 3>* from = &in;
        for (int s = 0; s < sweeps; ++s) {
          mesh::Field<T, 3>& to = s == sweeps - 1 ? out : scratch[s % 2];
          host_sweep(*from, to, f, jacobi_sweep_box(sweeps, s, update, active), nullptr, k);
          from = &to;
        }
      },
      [&](auto) {
        launch_jacobi_fused_cuda<T>(params, sweeps, in.view(), out.view(), f.view(), update, active, k, stream);
      });
}

template <class T>
double jacobi_sweep_with_residual(const mesh::Field<T, 3>& in, mesh::Field<T, 3>& out, const mesh::Field<T, 3>& f,
                                  const mesh::Box<3>& update, const mesh::Box<3>& norm_box, const PoissonCoefficients<T>& k,
                                  const JacobiCudaParams& params, StreamHandle stream) {
  require_layout(in, out, f, update);
  GRIDFLOW_REQUIRE(update.contains(norm_box), "the residual box must lie inside the update box");
  if (update.empty()) return 0;
  return core::run_on_space(
      "stencil::jacobi", in.space(), stream, [&] { return host_sweep(in, out, f, update, &norm_box, k); },
      [&](auto) {
        double sum = 0;
        launch_jacobi_cuda<T>(params, in.view(), out.view(), f.view(), update, &norm_box, k, &sum, stream);
        return sum;
      });
}

template <class T>
double residual_norm_squared(const mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, const mesh::Box<3>& box,
                             const PoissonCoefficients<T>& k, StreamHandle stream) {
  require_layout(u, u, f, box);
  if (box.empty()) return 0;
  return core::run_on_space(
      "stencil::residual_norm_squared", u.space(), stream, [&] { return host_residual_norm_squared(u, f, box, k); },
      [&](auto) { return residual_norm_squared_cuda<T>(u.view(), f.view(), box, k, stream); });
}

#define GRIDFLOW_INSTANTIATE_JACOBI(T)                                                                                 \
  template void jacobi_sweep<T>(const mesh::Field<T, 3>&, mesh::Field<T, 3>&, const mesh::Field<T, 3>&,                \
                                const mesh::Box<3>&, const PoissonCoefficients<T>&, const JacobiCudaParams&, StreamHandle); \
  template void jacobi_sweeps<T>(const mesh::Field<T, 3>&, mesh::Field<T, 3>&, const mesh::Field<T, 3>&, int,          \
                                 const mesh::Box<3>&, const mesh::Box<3>&, const PoissonCoefficients<T>&,               \
                                 const JacobiCudaParams&, StreamHandle);                                                 \
  template double jacobi_sweep_with_residual<T>(const mesh::Field<T, 3>&, mesh::Field<T, 3>&, const mesh::Field<T, 3>&, \
                                                const mesh::Box<3>&, const mesh::Box<3>&, const PoissonCoefficients<T>&,  \
                                                const JacobiCudaParams&, StreamHandle);                                 \
  template double residual_norm_squared<T>(const mesh::Field<T, 3>&, const mesh::Field<T, 3>&, const mesh::Box<3>&,    \
                                           const PoissonCoefficients<T>&, StreamHandle);
GRIDFLOW_INSTANTIATE_JACOBI(float)
GRIDFLOW_INSTANTIATE_JACOBI(double)
#undef GRIDFLOW_INSTANTIATE_JACOBI

}  // namespace gridflow::kernels::stencil
