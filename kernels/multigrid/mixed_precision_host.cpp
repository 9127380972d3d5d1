// Host oracle of the mixed-precision field operations and the dispatch to the CUDA variants.
#include "kernels/core/for_each_host.hpp"
#include "kernels/core/reduce_host.hpp"
#include "kernels/core/space_dispatch.hpp"
#include "kernels/multigrid/field_checks.hpp"
#include "kernels/multigrid/mixed_precision.hpp"
#include "kernels/multigrid/mixed_precision_cuda.hpp"
#include "kernels/multigrid/vector_ops_point.hpp"

namespace gridflow::kernels::multigrid {

namespace {
// residual_and_norm with the T residual kept in `exact` where it is given.
template <class T, class C>
double residual_rounded_and_norm(const mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, mesh::Field<T, 3>* exact, mesh::Field<C, 3>& r,
                                 const mesh::Box<3>& box, const PoissonCoefficients<T>& c, StreamHandle stream) {
  constexpr const char* name = "multigrid::residual_and_norm";
  require_same_space(u, f, name);
  require_same_space(u, r, name);
  require_reach(u, box.grow(1), name);
  require_reach(f, box, name);
  require_reach(r, box, name);
  if (exact) {
    require_same_space(u, *exact, name);
    require_reach(*exact, box, name);
  }
  if (box.empty()) return 0;
  const auto exact_view = exact ? exact->view() : mesh::FieldView<T, 3>{};
  return core::run_on_space(
      name, u.space(), stream,
      [&] {
        const auto uv = u.view();
        const auto fv = f.view();
        const auto rv = r.view();
        return core::reduce_host<core::Sum>(name, box, [&](std::int64_t i, std::int64_t j, std::int64_t k) {
          const T res = residual_at(uv, fv, i, j, k, c);
          if (exact_view.data) exact_view(i, j, k) = res;
          rv(i, j, k) = static_cast<C>(res);
          return product_point(res, res);
        });
      },
      [&](auto) { return residual_and_norm_cuda<T, C>(u.view(), f.view(), exact_view, r.view(), box, c, stream); });
}
}  // namespace

template <class T, class C>
double residual_and_norm(const mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, mesh::Field<C, 3>& r, const mesh::Box<3>& box,
                         const PoissonCoefficients<T>& c, StreamHandle stream) {
  return residual_rounded_and_norm<T, C>(u, f, nullptr, r, box, c, stream);
}

template <class T, class C>
double residual_and_norm(const mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, mesh::Field<T, 3>& exact, mesh::Field<C, 3>& r,
                         const mesh::Box<3>& box, const PoissonCoefficients<T>& c, StreamHandle stream) {
  return residual_rounded_and_norm<T, C>(u, f, &exact, r, box, c, stream);
}

template <class C, class T>
void add_correction(const mesh::Field<C, 3>& e, mesh::Field<T, 3>& u, const mesh::Box<3>& box, StreamHandle stream) {
  constexpr const char* name = "multigrid::add_correction";
  require_same_space(e, u, name);
  require_reach(e, box, name);
  require_reach(u, box, name);
  if (box.empty()) return;
  core::run_on_space(
      name, u.space(), stream,
      [&] {
        const auto ev = e.view();
        const auto uv = u.view();
        core::for_each_host(name, box,
                            [&](std::int64_t i, std::int64_t j, std::int64_t k) { uv(i, j, k) += static_cast<T>(ev(i, j, k)); });
      },
      [&](auto) { add_correction_cuda<C, T>(e.view(), u.view(), box, stream); });
}

template <class From, class To>
void convert(const mesh::Field<From, 3>& src, mesh::Field<To, 3>& dst, const mesh::Box<3>& box, StreamHandle stream) {
  constexpr const char* name = "multigrid::convert";
  require_same_space(src, dst, name);
  require_reach(src, box, name);
  require_reach(dst, box, name);
  if (box.empty()) return;
  core::run_on_space(
      name, src.space(), stream,
      [&] {
        const auto sv = src.view();
        const auto dv = dst.view();
        core::for_each_host(name, box,
                            [&](std::int64_t i, std::int64_t j, std::int64_t k) { dv(i, j, k) = static_cast<To>(sv(i, j, k)); });
      },
      [&](auto) { convert_cuda<From, To>(src.view(), dst.view(), box, stream); });
}

#define GRIDFLOW_INSTANTIATE_MIXED(T, C)                                                                               \
  template double residual_and_norm<T, C>(const mesh::Field<T, 3>&, const mesh::Field<T, 3>&, mesh::Field<C, 3>&,     \
                                          const mesh::Box<3>&, const PoissonCoefficients<T>&, StreamHandle);           \
  template double residual_and_norm<T, C>(const mesh::Field<T, 3>&, const mesh::Field<T, 3>&, mesh::Field<T, 3>&,     \
                                          mesh::Field<C, 3>&, const mesh::Box<3>&, const PoissonCoefficients<T>&,      \
                                          StreamHandle);                                                               \
  template void add_correction<C, T>(const mesh::Field<C, 3>&, mesh::Field<T, 3>&, const mesh::Box<3>&, StreamHandle); \
  template void convert<T, C>(const mesh::Field<T, 3>&, mesh::Field<C, 3>&, const mesh::Box<3>&, StreamHandle);       \
  template void convert<C, T>(const mesh::Field<C, 3>&, mesh::Field<T, 3>&, const mesh::Box<3>&, StreamHandle);
GRIDFLOW_INSTANTIATE_MIXED(double, float)
template void convert<float, float>(const mesh::Field<float, 3>&, mesh::Field<float, 3>&, const mesh::Box<3>&, StreamHandle);
#undef GRIDFLOW_INSTANTIATE_MIXED
// A float hierarchy's residual in float (MultigridHierarchy<float>::residual_norm with r).
template double residual_and_norm<float, float>(const mesh::Field<float, 3>&, const mesh::Field<float, 3>&, mesh::Field<float, 3>&,
                                                const mesh::Box<3>&, const PoissonCoefficients<float>&, StreamHandle);
template double residual_and_norm<float, float>(const mesh::Field<float, 3>&, const mesh::Field<float, 3>&, mesh::Field<float, 3>&,
                                                mesh::Field<float, 3>&, const mesh::Box<3>&, const PoissonCoefficients<float>&,
                                                StreamHandle);

}  // namespace gridflow::kernels::multigrid
